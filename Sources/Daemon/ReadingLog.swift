import Gateway
import GATTHealth
import Logging

/// The journal entry of every stored reading: a fixed `MESSAGE_ID`, so `journalctl MESSAGE_ID=…` tails
/// readings, and one field per value (docs/reference/BLUEZ-DBUS.md §17; docs/journal.md lists them).
public enum ReadingLog {
    /// `MESSAGE_ID` of "reading stored" entries (made with `systemd-id128 new`, fixed forever).
    public static let readingStoredMessageID = "4f1c2a9e7b3d4c61a8e05d2b9c7f3e10"
    /// `MESSAGE_ID` of "measurement failed" entries.
    public static let measurementFailedMessageID = "9b6e1d3f2a7c48e5b0d4c1a6f8e2b739"

    /// Logs one reading the store committed (or recognized as already stored).
    public static func stored(_ reading: Reading, outcome: CommitOutcome, to logger: Logger) {
        let unit = reading.unit.rawValue
        var metadata: Logger.Metadata = [
            "MESSAGE_ID": "\(readingStoredMessageID)",
            "BP_SYSTOLIC": "\(reading.systolic)", "BP_DIASTOLIC": "\(reading.diastolic)", "BP_UNIT": "\(unit)",
            "BP_DEVICE": "\(reading.device.address)", "BP_SYNC_IDENTIFIER": "\(reading.syncIdentifier)",
            "BP_OUTCOME": "\(outcome == .stored ? "stored" : "already-stored")",
        ]
        if let mean = reading.meanArterialPressure { metadata["BP_MEAN"] = "\(mean)" }
        if let pulse = reading.pulseRate { metadata["BP_PULSE_BPM"] = "\(pulse)" }
        if let user = reading.userID { metadata["BP_USER_ID"] = "\(user)" }
        if let person = reading.person { metadata["BP_PERSON"] = "\(person)" }
        if let time = reading.deviceTime?.isoString { metadata["BP_DEVICE_TIME"] = "\(time)" }
        let dropped = reading.dropped.map(\.description).joined(separator: "; ")
        if !dropped.isEmpty { metadata["BP_DROPPED"] = "\(dropped)" }
        let pulse = reading.pulseRate.map { ", pulse \($0)/min" } ?? ""
        let verb = outcome == .stored ? "stored" : "already stored"
        let without = dropped.isEmpty ? "" : "; left out as implausible: \(dropped)"
        logger.info("Reading \(verb): \(reading.systolic)/\(reading.diastolic) \(unit)\(pulse) from \(reading.device.address)\(without)",
                    metadata: metadata)
    }

    /// Logs that the time stamp of a reading just stored lay too far ahead of the gateway's clock to be believed
    /// (``DeviceTimeTrust``): which cuff, its time as reported, and by how much (`BP_DEVICE_TIME_AHEAD`, in seconds).
    public static func timeNotBelieved(_ reading: Reading, to logger: Logger) {
        guard let lead = reading.deviceTimeLead, let time = reading.deviceTime?.isoString else { return }
        let seconds = Int64((lead / .seconds(1)).rounded())
        let span = "\(seconds / 86_400) days \(seconds % 86_400 / 3600) h \(seconds % 3600 / 60) min"
        logger.warning(
            "Cuff \(reading.device.address): its time stamp \(time) lies \(span) ahead of the gateway's clock, more than the \(Int(DeviceTimeTrust.maximumLead / .seconds(3600))) h cuffd believes: the reading is filed under the time cuffd received it",
            metadata: ["BP_DEVICE": "\(reading.device.address)", "BP_DEVICE_TIME": "\(time)", "BP_DEVICE_TIME_AHEAD": "\(seconds)",
                       "BP_SYNC_IDENTIFIER": "\(reading.syncIdentifier)"])
    }

    /// Logs a measurement the cuff reported as failed, or whose values were implausible, why, and its bytes
    /// (`BP_PAYLOAD`, the hex `cuffctl decode` reads).
    public static func failed(_ failure: FailedMeasurement, to logger: Logger) {
        logger.warning("The cuff \(failure.device.address) reported a failed measurement: \(failure.reason)",
                       metadata: ["MESSAGE_ID": "\(measurementFailedMessageID)", "BP_DEVICE": "\(failure.device.address)",
                                  "BP_FAILURE": "\(failure.reason)", "BP_PAYLOAD": "\(Hex.bytes(failure.payload))"])
    }
}
