import DBus
import ReadingColumns

/// One reply of cuffd's `ChangeColumns` (docs/dbus-api.md, "Change feed" and "Columns") or `HeartRateChangeColumns`
/// ("Heart-rate change feed"): the page of one ``FeedKind``.
struct ChangePage: Sendable {
    var kind: FeedKind
    /// Readings stored or revised since the anchor asked with, in commit order (a page of ``FeedKind/readings``).
    var readings: [ReadingRecord] = []
    /// Heart-rate samples stored since the anchor asked with, in commit order (a page of ``FeedKind/heartRates``).
    var heartRates: [HeartRateRecord] = []
    /// Readings or samples deleted or replaced: a deletion applies to that version or an older one.
    var deleted: [(syncIdentifier: String, syncVersion: Int64)]
    /// Where the next page starts; durable only once what this page carried is.
    var anchor: UInt64
    /// More changes wait beyond ``anchor``.
    var more: Bool

    var isEmpty: Bool { readings.isEmpty && heartRates.isEmpty && deleted.isEmpty }

    /// How many readings or samples it carries.
    var count: Int { readings.count + heartRates.count }

    init(_ fields: DBusProperties, kind: FeedKind) throws {
        guard let anchor = try fields.property("anchor", as: UInt64.self), let more = try fields.property("more", as: Bool.self) else {
            throw FeedError.malformed("a \(kind.method) reply without anchor or more")
        }
        self.kind = kind
        self.anchor = anchor
        self.more = more
        do {
            if let columns = try fields.property("columns", as: DBusProperties.self) {
                switch kind {
                case .readings: readings = try ReadingColumns.records(columns)
                case .heartRates: heartRates = try HeartRateColumns.records(columns)
                }
            }
        } catch let error as ReadingColumnsError {
            throw FeedError.malformed(error.description)
        }
        deleted = []
        if case .array(_, let entries)? = fields["deleted"]?.value {
            for entry in entries {
                guard case .structure(let members) = entry, members.count == 2, case .string(let identifier) = members[0],
                      case .int64(let version) = members[1]
                else { throw FeedError.malformed("a deleted entry that is not (sync identifier, sync version)") }
                deleted.append((identifier, version))
            }
        }
    }
}

/// What following cuffd's feed can run into.
enum FeedError: Error, CustomStringConvertible {
    /// cuffd refused the caller (`org.cuffd.Error.NotAuthorized`, or the bus's AccessDenied): an administrator must
    /// add the user to group cuffd and grant it read access; retrying does not help.
    case notAuthorized(String)
    /// cuffd is not on the bus, or did not answer: it is restarting, or stopped.
    case cuffdUnavailable(String)
    /// cuffd no longer remembers the deletions since the anchor (`AnchorExpired`): start again from 0.
    case anchorExpired(FeedKind)
    /// The bus itself is gone.
    case busLost(String)
    case malformed(String)

    var description: String {
        switch self {
        case .notAuthorized(let message):
            "cuffd refused to let this user read readings (\(message)); an administrator runs `cuffctl grant UID bloodPressure read` and adds the user to group cuffd"
        case .cuffdUnavailable(let message): "cuffd is not answering: \(message)"
        case .anchorExpired(let kind): "cuffd no longer remembers the deletions of \(kind.noun) since the stored anchor"
        case .busLost(let message): "the D-Bus connection is gone: \(message)"
        case .malformed(let what): "cuffd sent \(what)"
        }
    }
}
