import ForwardingStatus
import FoundationEssentials
import ReadingColumns

/// Keeps the status file (``ForwardStatus``) up to date: at each change of state and after each acknowledged page.
/// A status that cannot be written is logged once and otherwise ignored — forwarding matters more than telling.
final class StatusReport {
    private let path: String
    private let log: ForwardLog
    private(set) var status: ForwardStatus

    init(gateway: String, anchor: UInt64, heartRateAnchor: UInt64, anchorPath: String, log: ForwardLog) {
        path = ForwardStatus.path(besideAnchor: anchorPath)
        self.log = log
        status = ForwardStatus(gateway: gateway, state: .forwarding, since: Date().timeIntervalSince1970, anchor: anchor)
        status.heartRateAnchor = heartRateAnchor
        write()
    }

    /// The sink acknowledged every heart-rate sample up to `anchor`.
    func acknowledgedHeartRates(anchor: UInt64) {
        status.heartRateAnchor = anchor
        write()
    }

    /// The loop is in `state`; `error` says why it is waiting.
    func set(_ state: ForwardStatus.State, error: (any Error)? = nil) {
        let now = Date().timeIntervalSince1970
        let changed = state != status.state
        if changed {
            status.state = state
            status.since = now
        }
        if let error {
            status.lastError = "\(error)"
            status.lastErrorAt = now
        }
        if changed || error != nil { write() }
    }

    /// PostgreSQL acknowledged everything up to `anchor`; `last` is the page's last reading, if it had one, and
    /// `othersReadings` how many of the page's readings another gateway had forwarded first.
    func acknowledged(anchor: UInt64, last: ReadingRecord?, othersReadings: Int) {
        status.anchor = anchor
        if othersReadings > 0 { status.othersReadings = (status.othersReadings ?? 0) + othersReadings }
        if let last {
            status.lastSyncIdentifier = last.syncIdentifier
            status.lastMeasuredAt = last.time
            status.lastAcknowledgedAt = Date().timeIntervalSince1970
        }
        write()
    }

    private func write() {
        do {
            try status.write(to: path)
        } catch {
            log.state("status", "unwritable", .warning, "the status file \(path) cannot be written: \(error)")
        }
    }
}
