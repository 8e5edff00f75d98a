import DBus
import GATTHealth

/// ATT error codes an emulated cuff answers with (Core Specification Vol 3 Part F §3.4.1.1; 0xFD and 0xFE
/// from the Core Specification Supplement's common profile error codes), and the D-Bus error bluetoothd
/// 5.66 makes of each (`create_gatt_dbus_error()` in `src/gatt-client.c`; docs/reference/BLUEZ-DBUS.md §5, §8).
public enum ATTError: UInt8, Error, Sendable {
    case readNotPermitted = 0x02
    case writeNotPermitted = 0x03
    case insufficientAuthentication = 0x05
    case invalidOffset = 0x07
    case invalidAttributeValueLength = 0x0D
    case valueNotAllowed = 0x13
    case cccdImproperlyConfigured = 0xFD
    case procedureAlreadyInProgress = 0xFE
    /// Heart Rate Control Point: a value the service does not define.
    case controlPointValueNotSupported = 0x80

    /// The reply bluetoothd sends the caller of ReadValue, WriteValue or StartNotify.
    public var dbusError: DBusError {
        switch self {
        case .readNotPermitted: BluezError.notPermitted("Read not permitted")
        case .writeNotPermitted: BluezError.notPermitted("Write not permitted")
        // Insufficient encryption and key size map to the same reply.
        case .insufficientAuthentication: BluezError.notPermitted("Not paired")
        case .invalidOffset: BluezError.invalidArguments("Invalid offset")
        case .invalidAttributeValueLength: BluezError.invalidArguments("Invalid Length")
        // "Operation failed with ATT error: 0x%02x".
        case .valueNotAllowed, .cccdImproperlyConfigured, .procedureAlreadyInProgress, .controlPointValueNotSupported:
            BluezError.failed("Operation failed with ATT error: 0x" + Hex.digits(rawValue).lowercased())
        }
    }
}
