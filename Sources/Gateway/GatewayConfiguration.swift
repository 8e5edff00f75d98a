import BlueZ
import FoundationEssentials
import GATTHealth

/// What the Gateway needs to know from cuffd's configuration (docs/configuration.md).
public struct GatewayConfiguration: Sendable {
    /// The adapter to use: `hci0` or its address; nil for the first powered one.
    public var adapter: String?
    /// Whether to set cuffs' clocks through Current Time 0x2A2B where they allow it (the offset is
    /// measured and recorded either way).
    public var clockSync = true
    /// Who stands behind each User ID of each cuff.
    public var users = UserDirectory()
    /// Quirks set by configuration over the quirk table, by cuff address (`.some(nil)`: follows the spec).
    public var quirkOverrides: [BluetoothAddress: BloodPressureQuirk?] = [:]
    /// Cuffs the configuration names; they are collected from even before cuffd paired them.
    public var knownCuffs: Set<BluetoothAddress> = []
    /// The zone cuffs' clocks are assumed to show until a sync measures them: the gateway's own.
    public var timeZone = LocalTimeZone()
    /// How long `pair` waits for a person to type a passkey relayed through the control API.
    public var passkeyTimeout: Duration = .seconds(60)
    /// How sessions try again while the store refuses readings.
    public var storeRetry = RetryBackoff()
    /// How long a cuff that bonds anew on every link is left alone after a pairing anew failed, before another `Pair`:
    /// 5 s, doubling to 5 minutes (docs/omron.md §6).
    public var rebondRetry = RetryBackoff(first: .seconds(5), maximum: .seconds(300))
    /// How long a heart-rate value waits in memory before its batch is committed (``HeartRateBatch/window``): the
    /// longer, the fewer bytes written per value, and the more values a power cut loses. cuffd sets it from
    /// cuffd.conf's `HeartRateFlushInterval` (docs/configuration.md).
    public var heartRateFlushInterval: Duration = .seconds(1)

    public init() {}
}
