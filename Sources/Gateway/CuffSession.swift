import FoundationEssentials
import GATTHealth

/// One cuff's session: turns link events into states, progress and stored readings.
///
/// A reading counts as received only once the store has committed it; until then it stays pending, and a
/// store failure never loses it (the cuff may already have deleted its copy once bluetoothd confirmed the
/// indication, BLUEZ-DBUS.md pitfall 1).
public actor CuffSession {
    public let device: DeviceIdentity
    public private(set) var state: SessionState = .discovered
    /// Readings the store has not committed yet.
    public private(set) var pending: [Reading] = []

    private let users: UserDirectory
    private let store: any ReadingStore
    private let quirk: BloodPressureQuirk?
    private let continuation: AsyncStream<SessionEvent>.Continuation
    /// Every event, in order, for the daemon and `cuffctl`.
    public nonisolated let events: AsyncStream<SessionEvent>

    public init(device: DeviceIdentity, users: UserDirectory, store: any ReadingStore) {
        self.device = device
        self.users = users
        self.store = store
        quirk = device.quirk
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    deinit { continuation.finish() }

    /// Handles one link event and returns what it produced (also sent to ``events``).
    @discardableResult
    public func handle(_ event: LinkEvent) async -> [SessionEvent] {
        var produced: [SessionEvent] = []
        switch event {
        case .connecting: transition(to: .connecting, &produced)
        case .connected: transition(to: .resolving, &produced)
        case .servicesResolved: break
        case .subscribed: transition(to: .subscribed, &produced)
        case .disconnected: transition(to: .disconnected, &produced)
        case let .value(characteristic, bytes, receivedAt):
            await handleValue(characteristic, bytes, receivedAt, &produced)
        }
        return produced
    }

    /// Tries again to commit readings the store refused.
    @discardableResult
    public func retryPending() async -> [SessionEvent] {
        var produced: [SessionEvent] = []
        await commitPending(&produced)
        return produced
    }

    private func handleValue(
        _ characteristic: HealthCharacteristic, _ bytes: [UInt8], _ receivedAt: Date, _ produced: inout [SessionEvent]
    ) async {
        switch characteristic {
        case .intermediateCuffPressure:
            do {
                let progress = try IntermediateCuffPressure(decoding: bytes, quirk: quirk)
                transition(to: .measuring(cuffPressure: progress.cuffPressure, unit: progress.unit), &produced)
            } catch {
                emit(.malformedValue(characteristic, error, payload: bytes), &produced)
            }
        case .bloodPressureMeasurement:
            let measurement: BloodPressureMeasurement
            do {
                measurement = try BloodPressureMeasurement(decoding: bytes, quirk: quirk)
            } catch {
                emit(.malformedValue(characteristic, error, payload: bytes), &produced)
                return
            }
            switch MeasurementInterpretation(measurement, payload: bytes, device: device, users: users, receivedAt: receivedAt) {
            case let .reading(reading): pending.append(reading)
            case let .failed(failure): emit(.measurementFailed(failure), &produced)
            }
            await commitPending(&produced)
            if case .measuring = state { transition(to: .subscribed, &produced) }
        default:
            break
        }
    }

    private func commitPending(_ produced: inout [SessionEvent]) async {
        while let reading = pending.first {
            do {
                let outcome = try await store.commit(reading)
                pending.removeFirst()
                emit(.readingStored(reading, outcome), &produced)
            } catch {
                emit(.storeFailed(reading, reason: "\(error)"), &produced)
                return
            }
        }
    }

    private func transition(to newState: SessionState, _ produced: inout [SessionEvent]) {
        guard newState != state else { return }
        state = newState
        emit(.stateChanged(newState), &produced)
    }

    private func emit(_ event: SessionEvent, _ produced: inout [SessionEvent]) {
        produced.append(event)
        continuation.yield(event)
    }
}
