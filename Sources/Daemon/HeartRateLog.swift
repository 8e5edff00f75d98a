import FoundationEssentials
import BlueZ
import Gateway
import GATTHealth
import Logging

/// The journal's heart-rate entries (docs/journal.md): a sensor streams about a value a second, so the journal
/// gets one summary per minute of streaming and one when the link goes down — never one per value — under a
/// fixed `MESSAGE_ID`.
public enum HeartRateLog {
    /// `MESSAGE_ID` of heart-rate summaries (made with a random UUID, fixed forever).
    public static let summaryMessageID = "6f42722595bb48739b46beb5d46978a2"

    /// Logs what `address` sent over one stretch.
    public static func summary(_ summary: HeartRateSummary, from address: BluetoothAddress, to logger: Logger) {
        var metadata: Logger.Metadata = [
            "MESSAGE_ID": "\(summaryMessageID)", "HR_DEVICE": "\(address)", "HR_COUNT": "\(summary.count)",
            "HR_WITHOUT_CONTACT": "\(summary.withoutContact)", "HR_RR_INTERVALS": "\(summary.rrIntervals)",
            "HR_START": "\(summary.start.formatted(.iso8601))", "HR_END": "\(summary.end.formatted(.iso8601))",
        ]
        var range = ""
        if let minimum = summary.minimum, let maximum = summary.maximum, let mean = summary.mean {
            metadata["HR_MIN_BPM"] = "\(minimum)"
            metadata["HR_MAX_BPM"] = "\(maximum)"
            metadata["HR_MEAN_BPM"] = "\(Int(mean.rounded()))"
            range = ", \(minimum)–\(maximum)/min, mean \(Int(mean.rounded()))"
        }
        let contact = summary.withoutContact > 0 ? " (\(summary.withoutContact) without skin contact)" : ""
        logger.info("Heart rate stored: \(summary.count) value\(summary.count == 1 ? "" : "s") from \(address)\(range)\(contact)", metadata: metadata)
    }
}
