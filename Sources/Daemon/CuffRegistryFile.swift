import BlueZ
import DurableFiles
import Foundation
import Gateway

/// The Gateway's memory of each cuff (identity, feature, last record sequence number) in one JSON file in
/// cuffd's state directory, beside the store: replaced whole and durably (``DurableFile``), mode 0600 (it names
/// people's devices; nothing of it is world-readable).
///
/// The file names the store it belongs to (``HealthStore/identifier()``): beside a store restored from a backup,
/// or a new one, another store's registry is set aside — its cuffs are identified again on their next connection
/// and their records downloaded again from the start, which the store's sync identifiers make harmless — rather
/// than label readings with identities and skip records the store never saw. A file without a store (written
/// before the file named one) is taken as this store's.
public actor CuffRegistryFile: CuffRegistry {
    private let path: String
    private let storeIdentifier: UUID
    private var stored: [BluetoothAddress: CuffRecord]
    /// How many cuffs a registry of another store held when it was set aside at load; 0 when none was.
    public nonisolated let setAside: Int

    /// The file's format: the store it belongs to and its cuffs.
    private struct Contents: Codable {
        var store: UUID?
        var cuffs: [CuffRecord]
    }

    /// Loads `path` for the store `storeIdentifier`; a missing file is an empty registry, an unreadable one an
    /// error naming it.
    public init(path: String, storeIdentifier: UUID) throws {
        self.path = path
        self.storeIdentifier = storeIdentifier
        guard FileManager.default.fileExists(atPath: path) else {
            stored = [:]
            setAside = 0
            return
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let decoder = JSONDecoder()
        // The first format was the array of cuffs alone.
        let contents: Contents
        if let legacy = try? decoder.decode([CuffRecord].self, from: data) {
            contents = Contents(store: nil, cuffs: legacy)
        } else {
            contents = try decoder.decode(Contents.self, from: data)
        }
        let records = Dictionary(contents.cuffs.map { ($0.address, $0) }, uniquingKeysWith: { _, last in last })
        if let owner = contents.store, owner != storeIdentifier {
            stored = [:]
            setAside = records.count
        } else {
            stored = records
            setAside = 0
        }
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
        let data = try encoder.encode(Contents(store: storeIdentifier, cuffs: stored.values.sorted { $0.address < $1.address }))
        try DurableFile(path: path, mode: 0o600).write(data)
    }
}
