import FoundationEssentials
import GATTHealth

/// Heart Rate Measurement values (0x2A37, docs/reference/GATT-HEALTH.md §9) into the store, in batches
/// (``HeartRateBatch``; docs/gateway.md, "Heart rate").
extension CuffSession {
    /// Decodes a value and adds it to the batch; the batch is committed at most ``HeartRateBatch/window`` later.
    /// A malformed value is reported and skipped, a rate outside ``PlausibleRange/pulseRate`` is no sample.
    func receiveHeartRate(_ bytes: [UInt8], _ receivedAt: Date, _ produced: inout [SessionEvent]) async {
        let measurement: HeartRateMeasurement
        do {
            measurement = try HeartRateMeasurement(decoding: bytes)
        } catch {
            emit(.malformedValue(.heartRateMeasurement, error, payload: bytes), &produced)
            return
        }
        guard PlausibleRange.pulseRate.bounds.contains(Double(measurement.heartRate)) else {
            emit(.implausibleHeartRate(measurement.heartRate, payload: bytes), &produced)
            return
        }
        heartRates.append(HeartRateSample(measurement, device: device, users: users, receivedAt: receivedAt))
        if heartRates.waiting.count >= HeartRateBatch.fullBatch && heartRates.failures == 0 {
            await commitHeartRates(&produced)
        } else {
            scheduleHeartRateCommit(after: heartRates.window)
        }
    }

    /// Commits the values that wait now, without waiting for the window (cuffd is stopping); what it produced.
    public func flushHeartRates() async -> [SessionEvent] {
        var produced: [SessionEvent] = []
        await commitHeartRates(&produced)
        return produced
    }

    /// Commits what waits, unless a commit is under way (then the timer is set again for what it leaves).
    func commitHeartRates(_ produced: inout [SessionEvent]) async {
        heartRates.timer?.cancel()
        heartRates.timer = nil
        guard !heartRates.isCommitting, !heartRates.waiting.isEmpty else { return }
        heartRates.isCommitting = true
        defer { heartRates.isCommitting = false }
        let batch = heartRates.next
        do {
            _ = try await store.commit(heartRates: batch)
            let dropped = heartRates.dropped
            if heartRates.failures > 0 { emit(.heartRatesRecovered(committed: batch.count, dropped: dropped), &produced) }
            if let summary = heartRates.committed(batch) { emit(.heartRateSummary(summary), &produced) }
            emit(.heartRatesStored(batch), &produced)
            if !heartRates.waiting.isEmpty { scheduleHeartRateCommit(after: heartRates.window) }
        } catch {
            heartRates.failures += 1
            if heartRates.failures == 1 { emit(.heartRatesRefused(reason: "\(error)", waiting: heartRates.waiting.count), &produced) }
            scheduleHeartRateCommit(after: retry.delay(before: heartRates.failures))
        }
    }

    private func scheduleHeartRateCommit(after delay: Duration) {
        guard heartRates.timer == nil else { return }
        let clock = clock
        heartRates.timer = Task { [weak self] in
            try? await clock.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.commitHeartRatesByTimer()
        }
    }

    private func commitHeartRatesByTimer() async {
        heartRates.timer = nil
        var produced: [SessionEvent] = []
        await commitHeartRates(&produced)
        if !produced.isEmpty { await laterEvents(produced) }
    }
}
