import ArgumentParser
import DBus

/// `cuffctl delete SYNC-ID…`: delete readings from every query, statistic, export and report, for good — a cuff
/// sending one again stores nothing (docs/cuffctl.md, "Correcting readings").
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete readings, named by their sync identifiers (readings --json shows them).",
        discussion: "All or nothing: one sync identifier of no reading you may change (exit 68) deletes none. Administrators may delete every reading; a uid with share access to bloodPressure those it may read.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The readings' sync identifiers.") var syncIdentifiers: [String]

    func validate() throws {
        guard !syncIdentifiers.isEmpty else { throw ValidationError("name at least one reading by its sync identifier") }
    }

    func run() async throws {
        try await reportingFailures {
            let reply = try await CuffdConnection(bus).call("DeleteReadings", [syncIdentifiers.dbusValue])
            let count = try reply.first?.decode(UInt32.self) ?? 0
            print("deleted \(count) reading\(count == 1 ? "" : "s")")
        }
    }
}

/// `cuffctl add SYS/DIA [--pulse N] [--time DATE] [--person NAME] [--arm left|right] [--position sitting|standing|lying]
/// [--note TEXT]`: a reading taken on another device (a manual cuff at the pharmacy), entered by hand under the caller's
/// uid (docs/cuffctl.md, "Correcting readings").
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Enter a reading by hand.",
        discussion: "Values as a cuff would measure them (systolic 20–300, diastolic 10–300 and below the systolic, pulse 30–240/min; others exit 65); --time neither in the future nor before 1900 (default: now). Prints the new reading's sync identifier.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "Systolic/diastolic in mmHg, e.g. 128/82.") var pressures: String
    @Option(help: "Pulse per minute.") var pulse: Double?
    @Option(help: "When it was measured: 2026-11-23T07:15:00+01:00, a date, or a span back from now (2h).") var time: String?
    @OptionGroup var about: ReadingDescription

    func run() async throws {
        try await reportingFailures {
            let parts = pressures.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let systolic = Double(parts[0]), let diastolic = Double(parts[1]) else {
                throw CuffctlFailure(message: "\"\(pressures)\" is not SYS/DIA like 128/82", status: ExitStatus.usage)
            }
            var reading: DBusProperties = ["systolic": DBusVariant(systolic), "diastolic": DBusVariant(diastolic)]
            reading["pulseRate"] = pulse.map { DBusVariant($0) }
            reading["time"] = try time.map { DBusVariant(try DateArgument.parse($0).timeIntervalSince1970) }
            reading.merge(about.entries) { $1 }
            let reply = try await CuffdConnection(bus).call("AddReading", [reading.dbusValue])
            print(try reply.first?.decode(String.self) ?? "")
        }
    }
}

/// `cuffctl annotate SYNC-ID… [--exclude REASON | --include] [--person NAME | --no-person] [--arm …] [--position …]
/// [--note TEXT]`: a new revision of each reading named, all in one call (docs/cuffctl.md, "Correcting readings").
struct AnnotateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "annotate", abstract: "Exclude, move or describe a reading: a new revision of it.",
        discussion: "An excluded reading stays listed, marked, but leaves stats and the report's averages. --note \"\" removes the note. Prints the new revision's number; with several readings, all or nothing, how many were annotated.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The readings' sync identifiers.") var syncIdentifiers: [String]
    @Option(help: "Keep the reading out of statistics and averages, for this reason.") var exclude: String?
    @Flag(help: "Count an excluded reading again.") var include = false
    @Flag(help: "The reading is nobody's.") var noPerson = false
    @OptionGroup var about: ReadingDescription

    func validate() throws {
        guard !syncIdentifiers.isEmpty else { throw ValidationError("name at least one reading by its sync identifier") }
    }

    func run() async throws {
        try await reportingFailures {
            var changes = about.entries
            changes["exclude"] = exclude.map { DBusVariant($0) }
            changes["include"] = include ? DBusVariant(true) : nil
            changes["noPerson"] = noPerson ? DBusVariant(true) : nil
            if syncIdentifiers.count == 1 {
                let reply = try await CuffdConnection(bus).call("AnnotateReading", [.string(syncIdentifiers[0]), changes.dbusValue])
                print("revision \(try reply.first?.decode(Int64.self) ?? 0)")
            } else {
                let reply = try await CuffdConnection(bus).call("AnnotateReadings", [syncIdentifiers.dbusValue, changes.dbusValue])
                let count = try reply.first?.decode(UInt32.self) ?? 0
                print("annotated \(count) reading\(count == 1 ? "" : "s")")
            }
        }
    }
}

/// What `add` and `annotate` say of a reading: who was measured, on which arm, in which position, and a note — as
/// `AddReading` and `AnnotateReading` take them.
struct ReadingDescription: ParsableArguments {
    @Option(help: "The person measured, as the configuration names them.") var person: String?
    @Option(help: "left or right.") var arm: String?
    @Option(help: "sitting, standing or lying.") var position: String?
    @Option(help: "A note (at most 1000 bytes, one line; with annotate, \"\" removes it).") var note: String?

    /// The entries given, by their D-Bus keys.
    var entries: DBusProperties {
        var entries: DBusProperties = [:]
        for (key, value) in [("person", person), ("arm", arm), ("position", position), ("note", note)] {
            entries[key] = value.map { DBusVariant($0) }
        }
        return entries
    }
}
