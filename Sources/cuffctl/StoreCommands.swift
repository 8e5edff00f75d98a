import ArgumentParser
import DBus
import Foundation
import TerminalEscaping

/// `cuffctl stats [--since --until --device --user] [--json]`: minimum, maximum, average, most recent.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show statistics of the readings your uid may read.")
    @OptionGroup var bus: BusOptions
    @OptionGroup var window: ReadingWindow
    @Option(help: "Only this User ID.") var user: UInt8?
    @Flag(help: "Print JSON.") var json = false

    static let types = [("bloodPressureSystolic", "systolic", "mmHg"), ("bloodPressureDiastolic", "diastolic", "mmHg"),
                        ("bloodPressureMean", "mean", "mmHg"), ("heartRate", "pulse", "/min"), ("sensorHeartRate", "heartRate", "/min")]

    func run() async throws {
        try await reportingFailures {
            let filter = try window.match(user: user).readingsFilter
            let reply = try await CuffdConnection(bus).call("Statistics", [filter.dbusValue])
            let all = try reply.first?.decode([String: DBusVariant].self) ?? [:]
            var rows: [(String, JSONValue)] = []
            for (identifier, name, unit) in Self.types {
                let values = (try? all[identifier]?.decode(DBusProperties.self)) ?? [:]
                func number(_ key: String) -> JSONValue {
                    ((try? values.property(key, as: Double.self)) ?? nil).map { .number(ReadingOutput.text(($0 * 10).rounded() / 10)) } ?? .null
                }
                let count = ((try? values.property("count", as: UInt32.self)) ?? nil) ?? 0
                let row: [(String, JSONValue)] = [("count", .integer(count)), ("minimum", number("minimum")), ("maximum", number("maximum")),
                                                  ("average", number("average")), ("mostRecent", number("mostRecent")), ("unit", .string(unit))]
                rows.append((name, .object(row)))
                if !json {
                    print("\(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(count) readings  min \(number("minimum").plainText)  max \(number("maximum").plainText)  average \(number("average").plainText)  latest \(number("mostRecent").plainText) \(unit)")
                }
            }
            if json { print(JSONValue.object(rows).rendered) }
        }
    }
}

/// `cuffctl grant UID TYPE ACCESS [--person NAME]`: let a user read (or share) a type — everyone's readings, or the named
/// people's (docs/reference/HEALTH-STORE.md §6, docs/cuffctl.md "Grants"). Administrators only.
struct GrantCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant", abstract: "Let a user read or write a type of health data.",
        discussion: """
            TYPE: bloodPressure (systolic, diastolic, mean and pulse), bloodPressureSystolic, bloodPressureDiastolic, bloodPressureMean or \
            heartRate. ACCESS: read, share or read,share. With --person, the read covers only that person's readings and heart-rate \
            samples (the name cuffd.conf maps a User ID to); grants of several people add up. Without it, everyone's.
            """)
    @OptionGroup var bus: BusOptions
    @Argument(help: "The user's uid.") var uid: UInt32
    @Argument(help: "The type.") var type: String
    @Argument(help: "read, share or read,share.") var access: String
    @Option(help: "Only this person's readings (added to the people the user reads already).") var person: String?

    func run() async throws {
        try await reportingFailures {
            if let person {
                _ = try await CuffdConnection(bus).call("GrantPerson", [.uint32(uid), .string(type), .string(access), .string(person)])
            } else {
                _ = try await CuffdConnection(bus).call("Grant", [.uint32(uid), .string(type), .string(access)])
            }
        }
    }
}

/// `cuffctl revoke UID TYPE [--person NAME]`.
struct RevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Take a user's access to a type away.",
        discussion: "With --person, only that person's readings leave the user's read grant; without it, the whole grant goes.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The user's uid.") var uid: UInt32
    @Argument(help: "The type.") var type: String
    @Option(help: "Only this person's readings.") var person: String?

    func run() async throws {
        try await reportingFailures {
            if let person {
                _ = try await CuffdConnection(bus).call("RevokePerson", [.uint32(uid), .string(type), .string(person)])
            } else {
                _ = try await CuffdConnection(bus).call("Revoke", [.uint32(uid), .string(type)])
            }
        }
    }
}

/// `cuffctl permissions [UID]`: the grants of a user (your own unless you administer cuffd), with the people a read
/// grant names: `TYPE<tab>ACCESS`, and `<tab>PERSON, PERSON` after a read of named people's readings.
struct PermissionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "permissions", abstract: "Show what a user may read or write.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The user's uid; your own when omitted.") var uid: UInt32?

    func run() async throws {
        try await reportingFailures {
            let who = uid ?? getuid()
            let reply = try await CuffdConnection(bus).call("Grants", [.uint32(who)])
            guard case .array(_, let grants)? = reply.first else { return }
            if grants.isEmpty { print("uid \(who) has no grants: it sees only what it stored itself") }
            for case .structure(let fields) in grants where fields.count == 3 {
                let people = (try? fields[2].decode([String].self)) ?? []
                let whose = people.isEmpty ? "" : "\t" + people.map { TerminalText.escaped($0) }.joined(separator: ", ")
                print("\(fields[0].plain)\t\(fields[1].plain)\(whose)")
            }
        }
    }
}
