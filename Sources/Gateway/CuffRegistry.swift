import BlueZ
import GATTHealth

/// What the Gateway remembers about each cuff between connections and restarts: who it is (read once per
/// bond, docs/reference/GATT-HEALTH.md §11), its Blood Pressure Feature, and the last stored-record sequence number it
/// committed, so a download asks only for newer records (docs/reference/GATT-HEALTH.md §8).
public struct CuffRecord: Codable, Hashable, Sendable {
    public var address: BluetoothAddress
    /// Who the cuff said it is in Device Information; nil until it was read.
    public var identity: DeviceIdentity?
    /// Blood Pressure Feature 0x2A49, raw.
    public var feature: UInt16?
    /// The newest RACP record sequence number committed to the store.
    public var lastSequenceNumber: UInt16?
    /// The pairing key cuffd programmed into an Omron cuff (docs/omron.md §2).
    public var omronKey: [UInt8]?

    public init(address: BluetoothAddress) {
        self.address = address
    }
}

/// Where cuff records live: a file in cuffd's state directory, or memory in tests.
public protocol CuffRegistry: Sendable {
    func records() async -> [BluetoothAddress: CuffRecord]
    func save(_ record: CuffRecord) async throws
    func remove(_ address: BluetoothAddress) async throws
}

/// A ``CuffRegistry`` in memory.
public actor InMemoryCuffRegistry: CuffRegistry {
    private var stored: [BluetoothAddress: CuffRecord]

    public init(_ records: [CuffRecord] = []) {
        stored = Dictionary(uniqueKeysWithValues: records.map { ($0.address, $0) })
    }

    public func records() -> [BluetoothAddress: CuffRecord] { stored }
    public func save(_ record: CuffRecord) { stored[record.address] = record }
    public func remove(_ address: BluetoothAddress) { stored[address] = nil }
}
