import HealthStore
import Logging

/// The journal entry of every change on request — a reading entered by hand, annotated or deleted (docs/journal.md):
/// one entry per call under a fixed `MESSAGE_ID`, naming the caller's uid, the sync identifiers and the metadata keys
/// that changed, never a value (a deleted reading's values are gone, and a note is the person's own).
public enum EditLog {
    /// `MESSAGE_ID` of changes on request (made with a random UUID, fixed forever).
    public static let messageID = "9372864acbe44169849fc0f107dd3408"

    /// Logs that `uid` did `action` to the readings `syncIdentifiers`, changing `changedKeys`.
    public static func edited(_ action: EditRecord.Action, by uid: UInt32, _ syncIdentifiers: [String], changedKeys: [String], to logger: Logger) {
        let identifiers = syncIdentifiers.joined(separator: ",")
        var metadata: Logger.Metadata = [
            "MESSAGE_ID": "\(messageID)", "BP_EDIT": "\(action.rawValue)", "BP_CALLER_UID": "\(uid)", "BP_SYNC_IDENTIFIER": "\(identifiers)",
        ]
        if !changedKeys.isEmpty { metadata["BP_CHANGED"] = "\(changedKeys.sorted().joined(separator: ","))" }
        let readings = syncIdentifiers.count == 1 ? "the reading" : "\(syncIdentifiers.count) readings"
        let changed = changedKeys.isEmpty ? "" : ": \(changedKeys.sorted().joined(separator: ", "))"
        logger.notice("uid \(uid) \(action.rawValue) \(readings) \(syncIdentifiers.joined(separator: ", "))\(changed)", metadata: metadata)
    }
}
