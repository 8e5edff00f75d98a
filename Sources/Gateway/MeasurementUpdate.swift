import BlueZ
import FoundationEssentials

/// What `cuffctl start` shows while a measurement session is armed.
public enum MeasurementUpdate: Sendable {
    /// The cuff's session moved (connecting, measuring with its cuff pressure, …).
    case state(BluetoothAddress, SessionState)
    /// A new reading was committed: the measurement is done.
    case reading(BluetoothAddress, Reading)
    /// The cuff reported a failed measurement.
    case failed(BluetoothAddress, FailedMeasurement)
    /// No reading came within the time allowed.
    case timedOut
    /// `stop` ended the session.
    case stopped
}

/// One armed measurement session: forwards the sessions' events of the cuff it watches (or of every cuff)
/// until a new reading is committed, a failure is reported, time runs out or it is stopped.
///
/// The measurement is the first reading that arrived after the session was armed and was new to the
/// store: a cuff re-sending its history is recognized by the store, and history held back from an
/// earlier link (its Device Information not read yet) arrived before. A BPS 1.1 record downloaded from
/// the cuff's memory (it has a sequence number, docs/reference/GATT-HEALTH.md §7–§8) whose UTC time stamp lies before
/// the session was armed is history too, however new to the store: the VM acceptance suite saw a
/// download cut off by the cuff's first link loss end `cuffctl start` with a record three days old.
final class MeasurementWatcher: Sendable {
    let address: BluetoothAddress?
    let armedAt: Date
    private let continuation: AsyncStream<MeasurementUpdate>.Continuation

    init(address: BluetoothAddress?, armedAt: Date, continuation: AsyncStream<MeasurementUpdate>.Continuation) {
        self.address = address
        self.armedAt = armedAt
        self.continuation = continuation
    }

    func watches(_ cuff: BluetoothAddress) -> Bool { address == nil || address == cuff }

    func deliver(_ cuff: BluetoothAddress, _ event: SessionEvent) {
        guard watches(cuff) else { return }
        switch event {
        case .stateChanged(let state):
            continuation.yield(.state(cuff, state))
        case .readingStored(let reading, .stored) where reading.receivedAt >= armedAt && !isEarlierRecord(reading):
            continuation.yield(.reading(cuff, reading))
            continuation.finish()
        case .measurementFailed(let failure) where failure.receivedAt >= armedAt:
            continuation.yield(.failed(cuff, failure))
            continuation.finish()
        default:
            break
        }
    }

    /// A stored record measured before the session was armed; records carry UTC (BPS 1.1), so no clock
    /// offset applies.
    private func isEarlierRecord(_ reading: Reading) -> Bool {
        guard reading.sequenceNumber != nil, let measured = reading.deviceTime?.dateReadAsUTC else { return false }
        return measured < armedAt
    }

    func end(_ update: MeasurementUpdate) {
        continuation.yield(update)
        continuation.finish()
    }
}
