import FoundationEssentials
import GATTHealth

/// What the Bluetooth side reports about one cuff's link, in the order it happens. The BlueZ client
/// turns D-Bus signals into these; tests script them directly.
public enum LinkEvent: Sendable {
    case connecting
    case connected
    /// ServicesResolved became true and the health characteristics were found.
    case servicesResolved
    /// StartNotify succeeded on every characteristic the session listens to.
    case subscribed
    /// A notification or indication (PropertiesChanged on Value), or a read value.
    case value(HealthCharacteristic, [UInt8], receivedAt: Date)
    /// A stored record a BPS 1.1 cuff reported through RACP, reassembled from its 0x2B36 segments: the
    /// recorded characteristic (0x2B34 or 0x2A35) and its value.
    case storedRecord(sequenceNumber: UInt16, HealthCharacteristic, [UInt8], receivedAt: Date)
    /// A record read from an Omron cuff's memory (docs/omron.md §4–§5): the Omron user number (1, 2, …), the
    /// decoded record and the slot's bytes.
    case omronRecord(user: UInt8, OmronRecord, slot: [UInt8], receivedAt: Date)
    /// A record of a Microlife cuff's memory (docs/reference/GATT-HEALTH.md §13.12), filed under the user selected on
    /// the cuff (1 or 2).
    case microlifeRecord(user: UInt8, MicrolifeReading, receivedAt: Date)
    case disconnected
}

/// What a session tells its observers.
public enum SessionEvent: Sendable {
    case stateChanged(SessionState)
    /// A reading the store has committed (or recognized as already stored).
    case readingStored(Reading, CommitOutcome)
    /// The cuff reported a failed measurement.
    case measurementFailed(FailedMeasurement)
    /// A value that could not be decoded; logged and skipped, the session goes on.
    case malformedValue(HealthCharacteristic, GATTDecodingError, payload: [UInt8])
    /// The store began refusing readings (`reading` was the first refused; `waiting` are pending now): they
    /// stay pending, in the spool (each it cannot keep is a ``spoolRefused(_:reason:)``), and a timer retries with
    /// backoff. Sent once per refusal, not per reading.
    case storeFailed(Reading, reason: String, waiting: Int)
    /// The store takes readings again: the refusal has ended, `committed` readings went in on this try.
    case storeRecovered(committed: Int)
    /// A reading turned away because ``CuffSession/pendingLimit`` readings already wait for the store; its
    /// journal entry keeps its bytes.
    case readingDropped(Reading, waiting: Int)
    /// The spool could not keep `reading` (full, too large for a slot, a failed write: `reason`), which so waits for
    /// the store in memory only and is lost if cuffd stops first; its journal entry keeps its bytes. Once per reading.
    case spoolRefused(Reading, reason: String)
    /// Heart-rate samples the store has committed, a batch at a time (docs/gateway.md, "Heart rate").
    case heartRatesStored([HeartRateSample])
    /// A heart rate outside ``PlausibleRange/pulseRate``: not a sample.
    case implausibleHeartRate(UInt16, payload: [UInt8])
    /// The store refused a batch of heart-rate samples: they wait in memory (up to the session's pending limit,
    /// the oldest giving way) and are retried with backoff. Sent once per refusal.
    case heartRatesRefused(reason: String, waiting: Int)
    /// The store takes heart-rate samples again; `dropped` gave way while it refused.
    case heartRatesRecovered(committed: Int, dropped: Int)
    /// What a heart-rate sensor sent in the last minute, or since the last summary when the link went down:
    /// one journal entry instead of one per value.
    case heartRateSummary(HeartRateSummary)
}
