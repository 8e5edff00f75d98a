import BlueZ
import Foundation
import Gateway

/// The Gateway's memory of each cuff (identity, feature, last record sequence number) in one JSON file in
/// cuffd's state directory, beside the store: written whole to a temporary file, synced and renamed over
/// the old one, mode 0600 (it names people's devices; nothing of it is world-readable).
public actor CuffRegistryFile: CuffRegistry {
    private let path: String
    private var stored: [BluetoothAddress: CuffRecord]

    /// Loads `path`; a missing file is an empty registry, an unreadable one an error naming it.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            stored = [:]
            return
        }
        let records = try JSONDecoder().decode([CuffRecord].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        stored = Dictionary(records.map { ($0.address, $0) }, uniquingKeysWith: { _, last in last })
    }

    public func records() -> [BluetoothAddress: CuffRecord] { stored }

    public func save(_ record: CuffRecord) throws {
        stored[record.address] = record
        try write()
    }

    public func remove(_ address: BluetoothAddress) throws {
        guard stored.removeValue(forKey: address) != nil else { return }
        try write()
    }

    private func write() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(stored.values.sorted { $0.address < $1.address })
        let temporary = path + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}
