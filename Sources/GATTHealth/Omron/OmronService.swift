/// Omron's own GATT service and its characteristics (docs/omron.md §1; omblepy `omblepy.py`, hass-omron
/// `omron_ble/const.py`). UUIDs lower case, as BlueZ's `UUID` property spells them.
public enum OmronService {
    /// The service Omron cuffs advertise ("parent service").
    public static let uuid = "ecbe3980-c9a2-11e1-b1bd-0002a5d5c51b"
    /// Host → cuff, one 16-byte piece of a packet per channel (docs/omron.md §3).
    public static let transmitChannels = [
        "db5b55e0-aee7-11e1-965e-0002a5d5c51b", "e0b8a060-aee7-11e1-92f4-0002a5d5c51b",
        "0ae12b00-aee8-11e1-a192-0002a5d5c51b", "10e1ba60-aee8-11e1-89e5-0002a5d5c51b",
    ]
    /// Cuff → host, notified, one 16-byte piece per channel.
    public static let receiveChannels = [
        "49123040-aee8-11e1-a74d-0002a5d5c51b", "4d0bf320-aee8-11e1-a0d9-0002a5d5c51b",
        "5128ce60-aee8-11e1-b84b-0002a5d5c51b", "560f1420-aee8-11e1-8184-0002a5d5c51b",
    ]
    /// The pairing-key and unlock characteristic (write, notify; docs/omron.md §2).
    public static let unlock = "b305b680-aee7-11e1-a730-0002a5d5c51b"
    /// The bytes a packet piece carries at most.
    public static let pieceSize = 16
}
