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

    /// The bytes of the 0xFE4A service's token, chosen by the host (docs/omron.md §2).
    public static let tokenLength = 4

    /// The token unlock of the 0xFE4A service, on every connection: `11`, the host's `token`, 15 × `00`
    /// (hass-omron `devices.py` `UnlockMode.TOKEN_KEY`: "host sends 0x11 + 4 arbitrary (nonce) bytes";
    /// `omron_driver.py` `_token_unlock`, "a 20-byte frame").
    public static func tokenUnlock(_ token: [UInt8]) -> [UInt8] {
        [0x11] + token + [UInt8](repeating: 0, count: 15)
    }

    /// What a notification on the unlock characteristic says; success needs both bytes, as omblepy checks.
    public enum Answer: Hashable, Sendable {
        case keyProgrammingReady
        case keyStored
        case unlocked
        /// `91 00` and the 4 bytes after it: the token echoed (hass-omron `omron_driver.py`
        /// `_is_token_unlock_ack`); the unlock succeeded if they are the token sent.
        case tokenEchoed([UInt8])
        /// Anything else: not in pairing mode, a wrong key (the sources name no other answers).
        case refused([UInt8])

        public init(decoding bytes: [UInt8]) {
            switch Array(bytes.prefix(2)) {
            case [0x82, 0x00]: self = .keyProgrammingReady
            case [0x80, 0x00]: self = .keyStored
            case [0x81, 0x00]: self = .unlocked
            case [0x91, 0x00] where bytes.count >= 2 + OmronUnlock.tokenLength:
                self = .tokenEchoed(Array(bytes[2 ..< 2 + OmronUnlock.tokenLength]))
            default: self = .refused(bytes)
            }
        }
    }
}
