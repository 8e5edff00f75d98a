/// What a device's advertisement says, as bluetoothd shows it on Device1 (docs/reference/BLUEZ-DBUS.md §2): all a
/// model is recognised by before anyone pairs (``CuffCatalog/recognise(_:)``).
public struct CuffAdvertisement: Hashable, Sendable {
    /// `Name`.
    public var name: String?
    /// `UUIDs`, lower-case 128-bit: the services it advertises, and on a bonded device those its GATT database holds.
    public var uuids: [String]
    /// The company identifiers of its `ManufacturerData`.
    public var manufacturers: [UInt16]

    public init(name: String?, uuids: [String] = [], manufacturers: [UInt16] = []) {
        self.name = name
        self.uuids = uuids.map { $0.lowercased() }
        self.manufacturers = manufacturers
    }

    var upperName: String? { name?.uppercased() }
}
