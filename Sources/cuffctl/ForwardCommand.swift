import ArgumentParser
import DBus
import Foundation
import ForwardingStatus
import TerminalEscaping

/// `cuffctl forward …`: cuff-forward, the forwarder of readings to a central PostgreSQL (docs/forwarding.md).
struct ForwardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forward", abstract: "cuff-forward, the forwarder to a central PostgreSQL.", subcommands: [ForwardStatusCommand.self])
}

/// `cuffctl forward status [--json] [--state FILE]`: cuff-forward's state, its lag and its last error, in words
/// (docs/forwarding.md, "Status").
struct ForwardStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show what cuff-forward is doing, how far behind it is, and its last error.",
        discussion: """
            The lag is what cuffd's change feed holds beyond the anchor PostgreSQL acknowledged, counted with this \
            user's rights, and how long ago the last acknowledgement came when anything is waiting. Exit 66 when \
            cuff-forward has written no status (not configured, or never started).
            """)
    @OptionGroup var bus: BusOptions
    @Option(help: "cuff-forward's status file (beside its anchor file).") var state = "/var/lib/cuff-forward/status.json"
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let status: ForwardStatus
            do {
                status = try ForwardStatus.read(from: state)
            } catch {
                throw CuffctlFailure(message: "no status from cuff-forward in \(state): \(error.localizedDescription)", status: ExitStatus.noInput)
            }
            var feed = ChangeFeed(cuffd: try CuffdConnection(bus), anchor: status.anchor)
            var pending = 0
            try await feed.drain { pending += $0.count }
            let now = Date().timeIntervalSince1970
            let lagSeconds = pending == 0 ? 0 : max(0, now - (status.lastAcknowledgedAt ?? status.since))
            json ? print(Self.json(status, pending: pending, lagSeconds: lagSeconds).rendered) : print(Self.text(status, pending: pending, lagSeconds: lagSeconds, now: now))
        }
    }

    static func json(_ status: ForwardStatus, pending: Int, lagSeconds: Double) -> JSONValue {
        func number(_ value: Double?) -> JSONValue { value.map { .number(String(format: "%.3f", $0)) } ?? .null }
        return .object([
            ("gateway", .string(status.gateway)), ("state", .string(status.state.rawValue)), ("since", number(status.since)),
            ("anchor", .integer(status.anchor)), ("lagReadings", .integer(pending)), ("lagSeconds", number(lagSeconds)),
            ("lastSyncIdentifier", status.lastSyncIdentifier.map(JSONValue.string) ?? .null), ("lastMeasuredAt", number(status.lastMeasuredAt)),
            ("lastAcknowledgedAt", number(status.lastAcknowledgedAt)), ("othersReadings", .integer(status.othersReadings ?? 0)), ("lastError", status.lastError.map(JSONValue.string) ?? .null),
            ("lastErrorAt", number(status.lastErrorAt)),
        ])
    }

    /// The status in words, one line per fact; the gateway's name, a sync identifier (which holds a cuff's serial or
    /// address) and an error (which may quote a server or a cuff) escaped (``TerminalText``), so none adds a line.
    static func text(_ status: ForwardStatus, pending: Int, lagSeconds: Double, now: Double) -> String {
        func time(_ seconds: Double) -> String {
            Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(timeZone: .current)) + " (\(Int(now - seconds)) s ago)"
        }
        var lines = ["gateway \(TerminalText.escaped(status.gateway)): \(status.state.rawValue) since \(time(status.since))"]
        lines.append(pending == 0 ? "lag: none" : "lag: \(pending) readings, \(Int(lagSeconds)) s since the last acknowledgement")
        if let identifier = status.lastSyncIdentifier, let measured = status.lastMeasuredAt, let acknowledged = status.lastAcknowledgedAt {
            lines.append("last acknowledged reading: \(TerminalText.escaped(identifier)), measured \(time(measured)), acknowledged \(time(acknowledged))")
        } else {
            lines.append("last acknowledged reading: none since cuff-forward started")
        }
        if let others = status.othersReadings {
            lines.append("already central from another gateway: \(others) readings (a cuff read by both; the server keeps the first gateway's)")
        }
        if let error = status.lastError, let at = status.lastErrorAt { lines.append("last error: \(TerminalText.escaped(error)) — \(time(at))") }
        return lines.joined(separator: "\n")
    }
}
