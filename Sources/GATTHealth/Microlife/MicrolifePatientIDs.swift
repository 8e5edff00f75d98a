/// The answer to *get patient IDs* (docs/reference/GATT-HEALTH.md §13.12; joergmlpts/blood-pressure-monitor
/// `bpm_bt.py`, `get_id`): byte 1 the user selected on the cuff, bytes 2–21 user 1's ID, bytes 23–42 user 2's.
/// Bytes 0 and 22 are not interpreted.
public struct MicrolifePatientIDs: Hashable, Sendable {
    /// 1 or 2.
    public var selectedUser: UInt8
    /// The two users' IDs, printable ASCII with the padding and surrounding spaces removed; empty when none is set.
    public var user1: String
    public var user2: String

    /// The payload bytes the answer needs.
    public static let size = 43

    public init(selectedUser: UInt8, user1: String, user2: String) {
        self.selectedUser = selectedUser
        self.user1 = user1
        self.user2 = user2
    }

    /// Decodes the payload of the answer (the frame already taken off).
    public init(decoding payload: [UInt8]) throws(MicrolifeError) {
        guard payload.count >= Self.size else { throw .truncated(required: Self.size, actual: payload.count) }
        guard payload[1] == 1 || payload[1] == 2 else { throw .unknownUser(payload[1]) }
        selectedUser = payload[1]
        user1 = Self.id(payload[2 ..< 22])
        user2 = Self.id(payload[23 ..< 43])
    }

    /// The answer's payload as a cuff sends it: the bytes not interpreted 0, each ID zero-padded to 20 bytes.
    public func encoded() -> [UInt8] {
        [0, selectedUser] + Self.field(user1) + [0] + Self.field(user2)
    }

    /// An ID as its 20 bytes: cut at 20, zero-padded.
    static func field(_ id: String) -> [UInt8] {
        let bytes = Array(id.utf8.prefix(MicrolifeCommand.patientIDLength))
        return bytes + Array(repeating: 0, count: MicrolifeCommand.patientIDLength - bytes.count)
    }

    /// The selected user's ID; empty when none is set (the source then sets one before it reads).
    public var selectedID: String { selectedUser == 1 ? user1 : user2 }

    /// The printable ASCII characters of an ID field, spaces trimmed at both ends.
    private static func id(_ field: ArraySlice<UInt8>) -> String {
        let text = String(decoding: field.filter { (0x20 ... 0x7E).contains($0) }, as: UTF8.self)
        return String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
