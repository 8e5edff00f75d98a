/// The Microlife BP3GY1-2N's GATT service and its two characteristics (docs/reference/GATT-HEALTH.md §13.12;
/// joergmlpts/blood-pressure-monitor `bpm_bt.py`). UUIDs lower case, as BlueZ's `UUID` property spells them.
/// 0xFFF0 is not a health service the SIG assigned, and unrelated devices offer it too.
public enum MicrolifeService {
    public static let uuid = BluetoothUUID.expand(0xFFF0)
    /// Cuff → host: the answer frames, notified, possibly spread over several notifications.
    public static let notify = BluetoothUUID.expand(0xFFF1)
    /// Host → cuff: the command frames.
    public static let command = BluetoothUUID.expand(0xFFF2)
    /// The bytes one write to ``command`` carries at most; a longer frame goes out in consecutive writes.
    public static let writeSize = 20
    /// The years the cuff's clock holds: one byte, counted from 2000.
    public static let clockYears: ClosedRange<UInt16> = 2000 ... 2255
    /// The name the cuff advertises.
    public static let advertisedName = "BP3GY1-2N"
}
