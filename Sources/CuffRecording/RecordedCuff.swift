/// A cuff as `cuffctl capture` recorded it (docs/capture.md): its GATT database as bluetoothd showed it, and each link's
/// conversation — what the cuff sent, what the host read and wrote — in order. cuff-sim plays it back as a cuff of the
/// `recorded` kind (docs/cuff-sim.md, "Recorded cuffs"), so that a developer's cuffd meets what the user's met.
///
/// Shared by the capture, which writes it, and cuff-sim, which reads and validates it: the one statement of the format.
public struct RecordedCuff: Sendable, Equatable {
    /// Device1 `UUIDs`: the services the cuff advertised or has, lower-case 128-bit.
    public var uuids: [String]
    public var services: [RecordedService]
    /// Each link, in order: the first as the host connected, each later one after the cuff came back.
    public var links: [RecordedLink]
    /// What the capture could not record, in words (a link lost while the database was walked, …).
    public var notes: [String]

    public init(uuids: [String], services: [RecordedService], links: [RecordedLink], notes: [String] = []) {
        self.uuids = uuids
        self.services = services
        self.links = links
        self.notes = notes
    }

    /// The JSON keys of a `recorded` object (docs/cuff-sim.md).
    public enum Key: String, CodingKey, CaseIterable { case uuids, services, links, notes }

    /// Every characteristic, service by service, in database order.
    public var characteristics: [RecordedCharacteristic] { services.flatMap(\.characteristics) }

    /// The characteristic a step or a host's request names by `uuid` (lower-case 128-bit): the first with that UUID, as
    /// bluetoothd's clients find one (docs/reference/BLUEZ-DBUS.md §1).
    public func characteristic(_ uuid: String) -> RecordedCharacteristic? {
        characteristics.first { $0.uuid == uuid }
    }
}
