import FoundationEssentials
import GATTHealth

/// One cuff's session: turns link events into states, progress and stored readings.
///
/// A reading counts as received only once the store has committed it; until then it stays pending, and a
/// store failure never loses it (the cuff may already have deleted its copy once bluetoothd confirmed the
/// indication, BLUEZ-DBUS.md pitfall 1).
public actor CuffSession {
    /// Who the cuff is; completed by ``identify(_:)`` once its Device Information was read.
    public private(set) var device: DeviceIdentity
    public private(set) var state: SessionState = .discovered
    /// Readings the store has not committed yet.
    public private(set) var pending: [Reading] = []
    /// Values that arrived before the cuff was identified: a reading's sync identifier names the device,
    /// so it must not be made from a half-known identity (stored records arrive the moment indications
    /// are enabled, often before Device Information could be read; GATT-HEALTH.md §13.2).
    private var held: [LinkEvent] = []
    /// Whether the cuff's identity is complete, so values are handled as they come.
    public private(set) var isIdentified: Bool
    /// Add to the cuff's clock to get the true time, when a clock sync measured it.
    public private(set) var clockOffset: Duration?
    /// The zone the cuff's clock is assumed to show when no sync measured it: the gateway's.
    private let timeZone: LocalTimeZone

    private let users: UserDirectory
    private let store: any ReadingStore
    let quirk: BloodPressureQuirk?
    private let continuation: AsyncStream<SessionEvent>.Continuation
    /// Every event, in order, for the daemon and `cuffctl`.
    public nonisolated let events: AsyncStream<SessionEvent>

    /// A session; `identified: false` holds values back until ``identify(_:)``.
    public init(
        device: DeviceIdentity, users: UserDirectory, store: any ReadingStore, quirk: BloodPressureQuirk?? = nil, identified: Bool = true,
        timeZone: LocalTimeZone = LocalTimeZone()
    ) {
        self.device = device
        self.timeZone = timeZone
        self.users = users
        self.store = store
        self.quirk = quirk ?? device.quirk
        isIdentified = identified
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1024))
    }

    /// Completes the cuff's identity and handles the values held back until now.
    @discardableResult
    public func identify(_ identity: DeviceIdentity) async -> [SessionEvent] {
        device = identity
        isIdentified = true
        var produced: [SessionEvent] = []
        while !held.isEmpty {
            produced += await handle(held.removeFirst())
        }
        return produced
    }

    /// Records how far the cuff's clock is off, for the readings that follow.
    public func setClockOffset(_ offset: Duration?) {
        clockOffset = offset
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
        case .value, .storedRecord:
            guard isIdentified else {
                held.append(event)
                return produced
            }
            switch event {
            case let .value(characteristic, bytes, receivedAt):
                await handleValue(characteristic, bytes, receivedAt, &produced)
            case let .storedRecord(sequenceNumber, characteristic, bytes, receivedAt):
                await handleRecord(sequenceNumber, characteristic, bytes, receivedAt, &produced)
            default:
                break
            }
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
            await interpret(MeasurementInterpretation(
                measurement, payload: bytes, device: device, users: users, receivedAt: receivedAt,
                clockOffset: offset(for: measurement.timeStamp)), &produced)
            if case .measuring = state { transition(to: .subscribed, &produced) }
        default:
            break
        }
    }

    /// A record a BPS 1.1 cuff sent from its memory through RACP (GATT-HEALTH.md §7–§8), carrying its
    /// sequence number, which then names it in the sync identifier.
    private func handleRecord(
        _ sequenceNumber: UInt16, _ characteristic: HealthCharacteristic, _ bytes: [UInt8], _ receivedAt: Date,
        _ produced: inout [SessionEvent]
    ) async {
        do {
            let interpretation: MeasurementInterpretation
            switch characteristic {
            case .enhancedBloodPressureMeasurement:
                interpretation = MeasurementInterpretation(
                    try EnhancedBloodPressureMeasurement(decoding: bytes), payload: bytes, device: device, users: users,
                    receivedAt: receivedAt, sequenceNumber: sequenceNumber)
            default:
                let measurement = try BloodPressureMeasurement(decoding: bytes, quirk: quirk)
                interpretation = MeasurementInterpretation(
                    measurement, payload: bytes, device: device, users: users, receivedAt: receivedAt,
                    clockOffset: offset(for: measurement.timeStamp), sequenceNumber: sequenceNumber)
            }
            await interpret(interpretation, &produced)
        } catch {
            emit(.malformedValue(characteristic, error, payload: bytes), &produced)
        }
    }

    /// What turns a time stamp of the cuff's clock into the true instant: the offset a sync measured, else
    /// the gateway zone's offset at that wall-clock time (the cuff's clock is assumed to show local time,
    /// daylight saving included).
    private func offset(for stamp: DateTime?) -> Duration? {
        if let clockOffset { return clockOffset }
        guard let wall = stamp?.dateReadAsUTC else { return nil }
        let zoneSeconds = timeZone.secondsFromGMT(for: wall.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: wall))))
        return .seconds(-zoneSeconds)
    }

    private func interpret(_ interpretation: MeasurementInterpretation, _ produced: inout [SessionEvent]) async {
        switch interpretation {
        case let .reading(reading): pending.append(reading)
        case let .failed(failure): emit(.measurementFailed(failure), &produced)
        }
        await commitPending(&produced)
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
