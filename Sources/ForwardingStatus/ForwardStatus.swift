import DurableFiles
import FoundationEssentials

/// What cuff-forward is doing, for `cuffctl forward status` (docs/forwarding.md, "Status"): written by cuff-forward
/// beside its anchor file at each change of state and after each page the server acknowledged, read by cuffctl.
/// Replaced whole and durably (``DurableFile``), as the anchor is: after a crash or a power loss it is the last status
/// written or the one before, never torn or missing.
public struct ForwardStatus: Codable, Sendable, Equatable {
    /// What the loop waits for, in words.
    public enum State: String, Codable, Sendable {
        case forwarding = "forwarding"
        case waitingForPostgreSQL = "waiting for PostgreSQL"
        case waitingForCuffd = "waiting for cuffd"
        case waitingForBroker = "waiting for the MQTT broker"
        case waitingForReceiver = "waiting for the HTTP receiver"
        /// The HTTP receiver refused a page (400 or 422): the sink has stopped, its anchor kept, until cuff-forward is
        /// restarted (docs/forwarding.md, "The HTTP sink").
        case refused = "stopped: the HTTP receiver refused a page"
    }

    public var gateway: String
    public var state: State
    /// Unix seconds: since when ``state`` holds.
    public var since: Double
    /// The anchor up to which the sink acknowledged every reading.
    public var anchor: UInt64
    /// The anchor up to which the sink acknowledged every heart-rate sample (the heart-rate feed's own, docs/dbus-api.md);
    /// nil in a status an older cuff-forward wrote.
    public var heartRateAnchor: UInt64?
    /// The last reading the server acknowledged: its sync identifier, its measurement time, and when.
    public var lastSyncIdentifier: String?
    public var lastMeasuredAt: Double?
    public var lastAcknowledgedAt: Double?
    /// Readings another gateway had forwarded first, which the server kept as that one sent them, since cuff-forward
    /// started (docs/forwarding.md, "A cuff on two gateways").
    public var othersReadings: Int?
    /// The last failure, in words, and when.
    public var lastError: String?
    public var lastErrorAt: Double?

    public init(gateway: String, state: State, since: Double, anchor: UInt64) {
        self.gateway = gateway
        self.state = state
        self.since = since
        self.anchor = anchor
    }

    /// The status file beside an anchor file.
    public static func path(besideAnchor anchorPath: String) -> String {
        parentFolder(of: anchorPath) + "/status.json"
    }

    public static func read(from path: String) throws -> ForwardStatus {
        try JSONDecoder().decode(ForwardStatus.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Replaces the file at `path` whole and durably, readable by all who may enter its folder (mode 0644).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try DurableFile(path: path, mode: 0o644).write(encoder.encode(self))
    }
}
