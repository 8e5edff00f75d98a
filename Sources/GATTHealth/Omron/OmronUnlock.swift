/// The unlock characteristic's writes and the cuff's answers (docs/omron.md §2; omblepy `omblepy.py`
/// `writeNewUnlockKey`, `unlockWithUnlockKey`; hass-omron `omron_driver.py`).
public enum OmronUnlock {
    /// The key's length.
    public static let keyLength = 16

    /// "Enter key programming": answered `82 00` only while the cuff shows "P".
    public static let enterKeyProgramming: [UInt8] = [0x02] + [UInt8](repeating: 0, count: keyLength)

    /// Stores `key` (during key programming).
    public static func program(_ key: [UInt8]) -> [UInt8] { [0x00] + key }

    /// Unlocks the memory with the stored `key`, on every connection.
    public static func unlock(_ key: [UInt8]) -> [UInt8] { [0x01] + key }

    /// What a notification on the unlock characteristic says; success needs both bytes, as omblepy checks.
    public enum Answer: Hashable, Sendable {
        case keyProgrammingReady
        case keyStored
        case unlocked
        /// Anything else: not in pairing mode, a wrong key (the sources name no other answers).
        case refused([UInt8])

        public init(decoding bytes: [UInt8]) {
            switch Array(bytes.prefix(2)) {
            case [0x82, 0x00]: self = .keyProgrammingReady
            case [0x80, 0x00]: self = .keyStored
            case [0x81, 0x00]: self = .unlocked
            default: self = .refused(bytes)
            }
        }
    }
}
