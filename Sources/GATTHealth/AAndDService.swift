/// A&D's own service on its Bluetooth cuffs, beside the Blood Pressure Service: one characteristic a host writes
/// commands to (docs/reference/GATT-HEALTH.md §13.8; obniz's parts `UA651BLE` and `UA1200BLE`, and A&D's Android sample
/// `ADGattUUID.java`, name both UUIDs).
public enum AAndDService {
    public static let uuid = "233bf000-5a34-1b6d-975c-000d5690abe4"
    /// The command characteristic (write).
    public static let command = "233bf001-5a34-1b6d-975c-000d5690abe4"
    /// `02 01 03`, which obniz's UA-1200BLE pairing writes once the bond is made ("disconnect req"): the cuff ends the link.
    public static let disconnectRequest: [UInt8] = [0x02, 0x01, 0x03]
}
