import BlueZ
import FoundationEssentials

/// One cuff as the daemon publishes it (`org.cuffd.Cuff1`, `cuffctl devices`).
public struct CuffStatus: Hashable, Sendable {
    public var address: BluetoothAddress
    /// The advertised name.
    public var name: String?
    public var paired: Bool
    public var trusted: Bool
    public var connected: Bool
    public var state: SessionState
    /// Who the cuff says it is (Device Information), once read.
    public var identity: DeviceIdentity?
    /// The cuff has a vendor start command (QardioArm); others start when their user presses START.
    public var canStart: Bool
    /// How far the cuff's clock was off at the last sync: add it to the cuff's time to get the true time.
    public var clockOffset: Duration?
    /// When the last reading from it was committed.
    public var lastReadingAt: Date?
    /// Battery Level (0x2A19) as read at the last connection, in percent; nil when the cuff has no Battery Service.
    public var batteryLevel: UInt8? = nil
    /// The newest Omron record downloaded had its low-battery bit set (docs/omron.md §5).
    public var batteryLow = false
}
