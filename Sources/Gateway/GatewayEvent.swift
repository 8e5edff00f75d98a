import BlueZ
import FoundationEssentials
import GATTHealth

/// What the Gateway tells the daemon: the journal, the D-Bus API and `cuffctl` are fed from these, after
/// the store has committed whatever an event reports (data flows one way: BlueZ → Gateway → store →
/// journal / D-Bus / CLI).
public enum GatewayEvent: Sendable {
    /// bluetoothd is on the bus with a usable adapter, or not.
    case bluetoothAvailable(Bool)
    case cuffChanged(CuffStatus)
    case cuffRemoved(BluetoothAddress)
    /// Something a cuff's session produced: state changes, stored readings, failed measurements, skipped
    /// malformed values, store refusals.
    case session(BluetoothAddress, SessionEvent)
    /// A value a cuff sent, as decoded with its quirk, before the session interprets it: what the journal logs
    /// at `[Journal] Detail=packets` (docs/configuration.md). Values that do not decode are ``SessionEvent/malformedValue(_:_:payload:)``.
    case packet(BluetoothAddress, DecodedCharacteristic, payload: [UInt8])
    /// Pairing waits for the passkey the cuff displays (``CuffGateway/providePasskey(_:for:)``).
    case passkeyRequested(BluetoothAddress)
    /// A stored-record download through RACP ended (docs/reference/GATT-HEALTH.md §8): how many records the cuff sent.
    case recordsDownloaded(BluetoothAddress, count: Int)
    /// The cuff's clock was read and, where allowed, set (docs/reference/GATT-HEALTH.md §10); `offset` is how far it was
    /// off, nil for a clock that can only be written (an A&D cuff's Date Time, §13.8).
    case clockSynchronized(BluetoothAddress, offset: Duration?, written: Bool)
    /// A measurement session was armed (``CuffGateway/startMeasurement(_:timeout:)``) for the cuff at the address (nil:
    /// any cuff), for `timeout`: from now on, a new reading ends it.
    case measurementArmed(BluetoothAddress?, timeout: Duration)
    /// A cuff with a vendor control point reported the phase of its measurement (QardioArm: inflating,
    /// measuring, deflating, completed, aborted, error).
    case measurementPhase(BluetoothAddress, String)
    /// A cuff-level problem worth a log line: services missing after resolution, a failed read, ….
    case problem(BluetoothAddress, String)
}
