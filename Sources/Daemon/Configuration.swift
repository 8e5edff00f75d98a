import BlueZ
import GATTHealth
import Gateway
import INIConfiguration

/// cuffd's settings, read from `/etc/cuffd/cuffd.conf` (docs/configuration.md). Every setting has a
/// default, so a missing file is an empty configuration; a file that says something wrong is refused with
/// the line that says it.
public struct Configuration: Equatable, Sendable {
    /// How much each stored reading puts in the journal.
    public enum JournalDetail: String, Sendable, CaseIterable {
        /// One structured entry per reading (values, unit, device, user).
        case readings
        /// Readings plus connection and session events.
        case sessions
        /// Everything, including each decoded packet: for debugging a cuff.
        case packets
    }

    /// A cuff the configuration knows.
    public struct Cuff: Equatable, Sendable {
        public var address: BluetoothAddress
        /// A name for people ("Hall cuff"); the advertised name when nil.
        public var name: String?
        /// The person behind each User ID (`User0=alice`).
        public var people: [UInt8: String]
        /// The person for readings that carry no User ID (`NoUser=alice`).
        public var personWithoutUserID: String?
        /// Overrides the quirk table (`Quirk=beurerByteSwapped` or `Quirk=none`); nil: the table decides.
        public var quirkOverride: QuirkOverride?
    }

    /// A cuff's quirk as the configuration sets it, over the quirk table.
    public enum QuirkOverride: Equatable, Sendable {
        case quirk(BloodPressureQuirk)
        /// The cuff follows the spec whatever its name suggests.
        case none
    }

    /// The SQLite store.
    public var storePath = "/var/lib/cuffd/health.sqlite"
    /// Seconds a heart-rate value waits in memory before its batch is committed (docs/configuration.md, "Heart-rate
    /// values and the SD card": the bytes written per value against the values a power cut loses).
    public var heartRateFlushInterval = 120
    /// What `HeartRateFlushInterval` may be: a second at least (a commit per value), a batch a sensor's 1 Hz fills
    /// below the Gateway's full batch (1 000 values, docs/gateway.md "Heart rate") at most.
    public static let heartRateFlushIntervals = 1...900
    /// The adapter to use (`hci0` or its address); nil for the first powered one.
    public var adapter: String?
    /// Whether to set cuffs' clocks through Current Time where they allow it.
    public var clockSync = true
    public var journalDetail = JournalDetail.readings
    public var cuffs: [Cuff] = []

    public init() {}

    /// Who stands behind each User ID, as ``UserDirectory`` wants it.
    public var userDirectory: UserDirectory {
        var directory = UserDirectory()
        for cuff in cuffs {
            for (userID, person) in cuff.people { directory.assign(person, to: userID, of: cuff.address.description) }
            if let person = cuff.personWithoutUserID { directory.assign(person, toReadingsWithoutUserOf: cuff.address.description) }
        }
        return directory
    }

    /// Every person a cuff's users are mapped to: whom a reading may be entered or moved for (docs/dbus-api.md,
    /// "Correcting readings").
    public var people: Set<String> {
        Set(cuffs.flatMap { Array($0.people.values) + ($0.personWithoutUserID.map { [$0] } ?? []) })
    }

    /// Parses a configuration file's text; `file` names it in errors.
    public init(parsing text: String, file: String) throws(ConfigurationError) {
        let document = try INIDocument(parsing: text, file: file)
        for section in document.sections {
            let reader = SectionReader(section: section, file: file)
            switch section.header {
            case "Store":
                try reader.allow(["Path", "HeartRateFlushInterval"])
                if let path = try reader.path("Path") { storePath = path }
                if let interval = try reader.seconds("HeartRateFlushInterval", in: Self.heartRateFlushIntervals) { heartRateFlushInterval = interval }
            case "Bluetooth":
                try reader.allow(["Adapter"])
                adapter = try reader.adapter("Adapter")
            case "Clock":
                try reader.allow(["Sync"])
                if let sync = try reader.boolean("Sync") { clockSync = sync }
            case "Journal":
                try reader.allow(["Detail"])
                if let detail = try reader.choice("Detail", of: JournalDetail.self) { journalDetail = detail }
            case _ where section.header.hasPrefix("Cuff "):
                cuffs.append(try reader.cuff(existing: cuffs))
            default:
                throw ConfigurationError(
                    file: file, line: section.line,
                    message: "unknown section [\(section.header)]; expected [Store], [Bluetooth], [Clock], [Journal] or [Cuff XX:XX:XX:XX:XX:XX]")
            }
        }
    }
}
