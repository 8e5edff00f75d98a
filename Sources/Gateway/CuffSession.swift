import FoundationEssentials
import GATTHealth

/// One cuff's session: turns link events into states, progress and stored readings.
///
/// A reading counts as received only once the store has committed it; until then it stays pending, and a
/// store failure never loses it (the cuff may already have deleted its copy once bluetoothd confirmed the
/// indication, docs/reference/BLUEZ-DBUS.md pitfall 1).
///
/// Reentrancy: the actor runs other calls while one awaits the store, so `handle` and `identify` can overlap.
/// Only one of them drains ``pending`` at a time (`isCommitting`); the others append and return, and the
/// drain commits what they appended too. A reading leaves ``pending`` by its sync identifier once committed.
/// While the store refuses, readings are kept in the spool and committed by a retry timer with backoff, and
/// the refusal and its end are each one event (docs/gateway.md, "When the store refuses").
public actor CuffSession {
    /// Who the cuff is; completed by ``identify(_:)`` once its Device Information was read.
    public private(set) var device: DeviceIdentity
    public private(set) var state: SessionState = .discovered
    /// Readings the store has not committed yet, oldest first; at most ``pendingLimit``.
    public private(set) var pending: [Reading] = []
    /// One drain of ``pending`` at a time (see the type's note on reentrancy).
    private var isCommitting = false
    /// Set while the store refuses: the failed tries so far and the timer of the next.
    private var refusal: (attempts: Int, retry: Task<Void, Never>?)?
    /// Readings this session put in the spool and has not released.
    private var spooled: Set<String> = []
    /// Readings the spool refused, each announced once (``SessionEvent/spoolRefused(_:reason:)``), until committed.
    private var unspooled: Set<String> = []
    /// How many readings may wait for the store before new ones are turned away (each is in the journal).
    public let pendingLimit: Int
    let retry: RetryBackoff
    /// What the store retries and the heart-rate window are timed on: the Gateway's clock.
    let clock: any Clock<Duration>
    private let spool: any ReadingSpool
    /// Receives what the retry timer produces, which no caller is waiting for.
    let laterEvents: @Sendable ([SessionEvent]) async -> Void
    /// Values that arrived before the cuff was identified: a reading's sync identifier names the device,
    /// so it must not be made from a half-known identity (stored records arrive the moment indications
    /// are enabled, often before Device Information could be read; docs/reference/GATT-HEALTH.md §13.2).
    private var held: [LinkEvent] = []
    /// Whether the cuff's identity is complete, so values are handled as they come.
    public private(set) var isIdentified: Bool
    /// Add to the cuff's clock to get the true time, when a clock sync measured it.
    public private(set) var clockOffset: Duration?
    /// The zone the cuff's clock is assumed to show when no sync measured it: the gateway's.
    private let timeZone: LocalTimeZone
    /// Heart-rate samples on their way to the store (``HeartRateBatch``).
    var heartRates: HeartRateBatch

    let users: UserDirectory
    let store: any ReadingStore
    let quirk: BloodPressureQuirk?

    /// A session; `identified: false` holds values back until ``identify(_:)``. `laterEvents` receives what
    /// the store-retry timer produces; `clock` times that timer and the heart-rate window.
    public init(
        device: DeviceIdentity, users: UserDirectory, store: any ReadingStore, quirk: BloodPressureQuirk?? = nil, identified: Bool = true,
        timeZone: LocalTimeZone = LocalTimeZone(), spool: any ReadingSpool = NoSpool(), retry: RetryBackoff = RetryBackoff(),
        pendingLimit: Int = 10_000, heartRateWindow: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock(),
        laterEvents: @escaping @Sendable ([SessionEvent]) async -> Void = { _ in }
    ) {
        self.clock = clock
        self.device = device
        self.timeZone = timeZone
        self.users = users
        self.store = store
        self.quirk = quirk ?? device.quirk
        self.spool = spool
        self.retry = retry
        self.pendingLimit = pendingLimit
        self.laterEvents = laterEvents
        heartRates = HeartRateBatch(window: heartRateWindow, limit: pendingLimit)
        isIdentified = identified
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

    deinit {
        refusal?.retry?.cancel()
        heartRates.timer?.cancel()
    }

    /// Handles one link event and returns what it produced.
    @discardableResult
    public func handle(_ event: LinkEvent) async -> [SessionEvent] {
        var produced: [SessionEvent] = []
        switch event {
        case .connecting: transition(to: .connecting, &produced)
        case .connected: transition(to: .resolving, &produced)
        case .servicesResolved: break
        case .subscribed: transition(to: .subscribed, &produced)
        case .disconnected:
            transition(to: .disconnected, &produced)
            await commitHeartRates(&produced)
            if let summary = heartRates.finishSummary() { emit(.heartRateSummary(summary), &produced) }
        case .value, .storedRecord, .omronRecord, .microlifeRecord:
            guard isIdentified else {
                held.append(event)
                return produced
            }
            switch event {
            case let .value(characteristic, bytes, receivedAt):
                await handleValue(characteristic, bytes, receivedAt, &produced)
            case let .storedRecord(sequenceNumber, characteristic, bytes, receivedAt):
                await handleRecord(sequenceNumber, characteristic, bytes, receivedAt, &produced)
            case let .omronRecord(user, record, slot, receivedAt):
                let time = record.isTimeKnown ? record.time : nil
                await interpret(MeasurementInterpretation(
                    record, user: user, slot: slot, device: device, users: users, receivedAt: receivedAt,
                    clockOffset: offset(for: time)), &produced)
            case let .microlifeRecord(user, record, receivedAt):
                await interpret(MeasurementInterpretation(
                    record, user: user, device: device, users: users, receivedAt: receivedAt, clockOffset: offset(for: record.time)), &produced)
            default:
                break
            }
        }
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
        case .heartRateMeasurement:
            await receiveHeartRate(bytes, receivedAt, &produced)
        default:
            break
        }
    }

    /// A record a BPS 1.1 cuff sent from its memory through RACP (docs/reference/GATT-HEALTH.md §7–§8), carrying its
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
        case let .reading(reading):
            guard pending.count < pendingLimit else {
                emit(.readingDropped(reading, waiting: pending.count), &produced)
                return
            }
            pending.append(reading)
            if refusal != nil {
                // The store refuses: into the spool, and the retry timer commits it.
                await keepInSpool(reading, &produced)
                return
            }
        case let .failed(failure): emit(.measurementFailed(failure), &produced)
        }
        await commitPending(&produced)
    }

    /// Commits ``pending`` in order, unless another call is already doing so (it commits what was appended).
    private func commitPending(_ produced: inout [SessionEvent]) async {
        guard !isCommitting else { return }
        isCommitting = true
        defer { isCommitting = false }
        var committed = 0
        while let reading = pending.first {
            do {
                let outcome = try await store.commit(reading)
                if let index = pending.firstIndex(where: { $0.syncIdentifier == reading.syncIdentifier }) { pending.remove(at: index) }
                if spooled.remove(reading.syncIdentifier) != nil { await spool.release(reading.syncIdentifier) }
                unspooled.remove(reading.syncIdentifier)
                committed += 1
                emit(.readingStored(reading, outcome), &produced)
            } catch {
                // Some went in before the store refused again (a disk filled anew): that refusal ended, and this is
                // a new one, each said (docs/gateway.md, "When the store refuses").
                if committed > 0 { endRefusal(committed: committed, &produced) }
                await refused(reading, "\(error)", &produced)
                return
            }
        }
        endRefusal(committed: committed, &produced)
    }

    /// The store took readings: a refusal in progress has ended, with `committed` readings in on this try.
    private func endRefusal(committed: Int, _ produced: inout [SessionEvent]) {
        guard let ended = refusal else { return }
        ended.retry?.cancel()
        refusal = nil
        emit(.storeRecovered(committed: committed), &produced)
    }

    /// The store refused `reading`: everything pending goes to the spool, the refusal is announced once, and
    /// the next try is scheduled.
    private func refused(_ reading: Reading, _ reason: String, _ produced: inout [SessionEvent]) async {
        if refusal == nil { emit(.storeFailed(reading, reason: reason, waiting: pending.count), &produced) }
        for waiting in pending { await keepInSpool(waiting, &produced) }
        let attempts = (refusal?.attempts ?? 0) + 1
        refusal?.retry?.cancel()
        let (delay, clock) = (retry.delay(before: attempts), clock)
        let timer = Task { [weak self] in
            try? await clock.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.retryByTimer()
        }
        refusal = (attempts, timer)
    }

    private func retryByTimer() async {
        var produced: [SessionEvent] = []
        await commitPending(&produced)
        if !produced.isEmpty { await laterEvents(produced) }
    }

    /// Puts `reading` in the spool unless it is there already. One the spool cannot keep (full, too large for a slot,
    /// a failed write) waits in memory only: said once, with the spool's error; the tries at the store's next
    /// refusals, which may find room, are silent.
    private func keepInSpool(_ reading: Reading, _ produced: inout [SessionEvent]) async {
        guard !spooled.contains(reading.syncIdentifier) else { return }
        do {
            try await spool.keep(reading)
            spooled.insert(reading.syncIdentifier)
        } catch {
            if unspooled.insert(reading.syncIdentifier).inserted { emit(.spoolRefused(reading, reason: "\(error)"), &produced) }
        }
    }

    private func transition(to newState: SessionState, _ produced: inout [SessionEvent]) {
        guard newState != state else { return }
        state = newState
        emit(.stateChanged(newState), &produced)
    }

    func emit(_ event: SessionEvent, _ produced: inout [SessionEvent]) {
        produced.append(event)
    }
}
