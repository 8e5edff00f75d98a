/// The per-user counters at the start of an Omron cuff's settings (docs/omron.md §4; omblepy
/// `sharedDriver.py`): for user *u*, the word at 2*u* is the slot the next record goes to, the word at
/// 4 + 2*u* the number of unread records; only each word's low 8 bits count, and `0x8000` means none unread.
public struct OmronCounters: Hashable, Sendable {
    /// Per user: the slot the next record is written to.
    public var nextSlots: [Int]
    /// Per user: how many records were not read yet.
    public var unread: [Int]

    /// The word written into each unread field once the records are read (omblepy `resetUnreadRecordsCounter`).
    public static let noneUnread: UInt16 = 0x8000

    /// The byte order of a model's counter words: the record layout's on omblepy's models, big-endian on the
    /// HEM-7320T, whose records are little-endian (hass-omron `device_catalog.py`, `index_pointer_layout`).
    public enum ByteOrder: Hashable, Sendable {
        case littleEndian, bigEndian
    }

    public init(nextSlots: [Int], unread: [Int]) {
        self.nextSlots = nextSlots
        self.unread = unread
    }

    /// Decodes the counter block of `model` (at least ``OmronModel/counterBlockSize`` bytes).
    public init(decoding bytes: [UInt8], model: OmronModel) throws(OmronError) {
        guard bytes.count >= model.counterBlockSize else { throw .truncated(required: model.counterBlockSize, actual: bytes.count) }
        let low = model.counters == .bigEndian ? 1 : 0
        nextSlots = (0 ..< model.users).map { Int(bytes[2 * $0 + low]) }
        unread = (0 ..< model.users).map { Int(bytes[4 + 2 * $0 + low]) }
    }

    /// The counter block as the cuff holds it (for the emulated cuff): unused users' words are `0x8000`.
    public func encoded(model: OmronModel) -> [UInt8] {
        func word(_ value: UInt16) -> [UInt8] {
            model.counters == .bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        let slots = (0 ..< 2).map { $0 < nextSlots.count ? UInt16(nextSlots[$0]) : Self.noneUnread }
        let counts = (0 ..< 2).map { $0 < unread.count && unread[$0] > 0 ? UInt16(unread[$0]) : Self.noneUnread }
        return (slots + counts).flatMap(word)
    }

    /// The unread words set to "none unread", at their offset in the counter block (4), for the write-back.
    public static func resetUnread(model: OmronModel) -> (offset: UInt16, bytes: [UInt8]) {
        let word: [UInt8] = model.counters == .bigEndian ? [0x80, 0x00] : [0x00, 0x80]
        return (4, Array([[UInt8]](repeating: word, count: 2).joined()))
    }

    /// The slots holding `user`'s unread records, oldest first: the `unread` slots before the next one,
    /// wrapping around the ring of `slotsPerUser`; at most the whole ring, never a slot outside it.
    public func unreadSlots(user: Int, slotsPerUser: Int) -> [Int] {
        let next = nextSlots[user] % slotsPerUser
        let count = min(unread[user], slotsPerUser)
        return (0 ..< count).map { (next - count + $0 + slotsPerUser) % slotsPerUser }
    }
}
