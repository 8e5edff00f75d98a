import Gateway
import GATTHealth
import Logging

/// What of the Gateway's events goes to the journal, by `[Journal] Detail` (docs/configuration.md): every
/// stored reading and failed measurement always (docs/journal.md's MESSAGE_IDs), problems, passkey requests and armed measurements always, sessions
/// and pairing from `sessions` on, every decoded packet at `packets` (with its bytes, `BP_PAYLOAD`, in the hex
/// `cuffctl decode` reads).
public struct GatewayLog: Sendable {
    public let detail: Configuration.JournalDetail
    public let logger: Logger

    public init(detail: Configuration.JournalDetail, logger: Logger) {
        self.detail = detail
        self.logger = logger
    }

    public func log(_ event: GatewayEvent) {
        switch event {
        case let .session(_, .readingStored(reading, outcome)):
            ReadingLog.stored(reading, outcome: outcome, to: logger)
            if outcome == .stored, !reading.isDeviceTimeBelieved { ReadingLog.timeNotBelieved(reading, to: logger) }
        case let .session(_, .measurementFailed(failure)):
            ReadingLog.failed(failure, to: logger)
        case let .session(address, .malformedValue(characteristic, error, payload)):
            logger.warning("Skipped a malformed 0x\(characteristic.shortUUID) value from \(address): \(error)",
                           metadata: detail == .packets ? ["BP_PAYLOAD": "\(Hex.bytes(payload))"] : [:])
        case let .packet(address, decoded, payload) where detail == .packets:
            logger.info("Cuff \(address) sent \(decoded)", metadata: ["BP_PAYLOAD": "\(Hex.bytes(payload))"])
        case let .session(address, .storeFailed(_, reason, waiting)):
            // Not "in the spool": one the spool could not keep has an entry of its own (spoolRefused).
            logger.error("The store refuses readings (\(reason)); \(waiting) from \(address) wait for it and are retried with backoff")
        case let .session(address, .storeRecovered(committed)):
            logger.notice("The store takes readings again: \(committed) from \(address) committed")
        case let .session(address, .readingDropped(reading, waiting)):
            logger.error("Turned away a reading from \(address): \(waiting) already wait for the store", metadata: [
                "BP_PAYLOAD": "\(Hex.bytes(reading.payload))", "BP_SYNC_IDENTIFIER": "\(reading.syncIdentifier)",
            ])
        case let .session(address, .spoolRefused(reading, reason)):
            logger.error("Kept a reading from \(address) in memory only, lost if cuffd stops before the store takes it: the spool cannot keep it (\(reason))", metadata: [
                "BP_PAYLOAD": "\(Hex.bytes(reading.payload))", "BP_SYNC_IDENTIFIER": "\(reading.syncIdentifier)",
            ])
        case let .session(address, .heartRateSummary(summary)):
            HeartRateLog.summary(summary, from: address, to: logger)
        case let .session(address, .implausibleHeartRate(rate, payload)):
            logger.warning("Skipped a heart rate of \(rate)/min from \(address): outside \(PlausibleRange.pulseRate.bounds.lowerBound.formatted())–\(PlausibleRange.pulseRate.bounds.upperBound.formatted())/min",
                           metadata: ["BP_PAYLOAD": "\(Hex.bytes(payload))"])
        case let .session(address, .heartRatesRefused(reason, waiting)):
            logger.error("The store refuses heart-rate values (\(reason)); \(waiting) from \(address) wait in memory and are retried with backoff")
        case let .session(address, .heartRatesRecovered(committed, dropped)):
            logger.notice("The store takes heart-rate values again: \(committed) from \(address) committed\(dropped > 0 ? ", \(dropped) dropped while it refused" : "")")
        case let .session(address, .stateChanged(state)) where detail != .readings:
            logger.info("Cuff \(address): \(state)")
        case let .problem(address, what):
            logger.warning("Cuff \(address): \(what)")
        case .bluetoothAvailable(let available):
            if available { logger.notice("Bluetooth is available") } else { logger.warning("Bluetooth is not available (bluetoothd stopped, or no powered adapter)") }
        case let .recordsDownloaded(address, count) where detail != .readings:
            logger.info("Cuff \(address): \(count) stored record\(count == 1 ? "" : "s") downloaded")
        case let .clockSynchronized(address, offset, written) where detail != .readings:
            let shown = offset.map { "clock was \($0) off" } ?? "clock cannot be read"
            logger.info("Cuff \(address): \(shown)\(written ? "; set to local time" : "")")
        case let .measurementPhase(address, phase) where detail != .readings:
            logger.info("Cuff \(address): \(phase)")
        case .passkeyRequested(let address):
            logger.notice("Pairing \(address) waits for the passkey the cuff displays")
        case let .measurementArmed(address, timeout):
            logger.notice("Measurement armed for \(address.map(\.description) ?? "any cuff"): a new reading within \(timeout) ends it")
        default:
            break
        }
    }
}
