import ArgumentParser
import DBus
import Foundation
import TerminalEscaping

/// `cuffctl history SYNC-ID [--json]`: who entered, annotated or deleted a reading, when, and which keys changed — the
/// store's edit history as `History` gives it (docs/cuffctl.md, "Correcting readings").
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Show who changed a reading, when and what.",
        discussion: "One line per change, oldest first: time, the caller's uid, entered/annotated/deleted, and the keys that changed (never values). A reading you may not read, or one never changed on request, exits 68.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The reading's sync identifier.") var syncIdentifier: String
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let reply = try await CuffdConnection(bus).call("History", [.string(syncIdentifier)])
            let changes = try (reply.first?.decode([DBusProperties].self) ?? []).map(Change.init)
            if json {
                print(JSONValue.array(changes.map(\.json)).rendered)
            } else {
                changes.forEach { print($0.line) }
            }
        }
    }

    /// One entry of the history.
    struct Change {
        let time: Date
        let uid: UInt32
        let action: String
        let changed: [String]

        init(_ entry: DBusProperties) throws {
            time = Date(timeIntervalSince1970: try entry.property("time", as: Double.self) ?? 0)
            uid = try entry.property("uid", as: UInt32.self) ?? 0
            action = try entry.property("action", as: String.self) ?? ""
            changed = try entry.property("changed", as: [String].self) ?? []
        }

        var timeText: String { time.formatted(Date.ISO8601FormatStyle(timeZone: .current)) }

        var line: String {
            TerminalText.escaped("\(timeText)  uid \(uid)  \(action)\(changed.isEmpty ? "" : "  \(changed.joined(separator: ", "))")")
        }

        var json: JSONValue {
            .object([
                ("time", .string(timeText)), ("uid", .integer(uid)), ("action", .string(action)), ("changed", .array(changed.map(JSONValue.string))),
            ])
        }
    }
}
