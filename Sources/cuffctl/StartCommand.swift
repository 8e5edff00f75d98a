import ArgumentParser
import DBus
import Foundation
import TerminalEscaping

/// `cuffctl start [ADDRESS] [--timeout S] [--json]`: arms a measurement session and shows the cuff pressure
/// as the cuff reports it, then the reading. Standard cuffs measure when their user presses START; a QardioArm
/// is told to start (docs/reference/GATT-HEALTH.md §12). Exit 0 once a new reading was stored.
struct StartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Wait for the next measurement (press START on the cuff) and show its progress.",
        discussion: "Exit codes: 0 a new reading was stored; 65 the cuff reported a failed measurement; 68 unknown cuff; 75 no reading in time.")
    @OptionGroup var bus: BusOptions
    @Argument(help: "The cuff's address; any known cuff when omitted.") var address: String?
    @Option(help: "Seconds to wait for the measurement.") var timeout: Double = 120
    @Flag(help: "Print the reading as JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let cuffd = try CuffdConnection(bus)
            let changes = try await cuffd.signals(MatchRule(
                sender: CuffdConnection.name, interface: StandardInterface.properties, member: "PropertiesChanged",
                pathNamespace: CuffdConnection.path, arguments: [0: "org.cuffd.Cuff1"]))
            let progress = Task { await Self.showProgress(changes) }
            if address == nil { printImmediately("Press START on the cuff…") } else { printImmediately("Press START on \(address!.uppercased())…") }
            let reply: [DBusValue]
            do {
                reply = try await cuffd.call("Start", [.string(address?.uppercased() ?? ""), .double(timeout)], timeout: .seconds(timeout + 15))
            } catch let failure as CuffctlFailure {
                progress.cancel()
                await progress.value
                if standardOutputIsTerminal { printImmediately("") }
                throw failure.status == .failure && failure.message.contains("MeasurementFailed")
                    ? CuffctlFailure(message: failure.message, status: ExitStatus.malformedPayload) : failure
            }
            // The result is the last line: the progress task has ended before it is printed.
            progress.cancel()
            await progress.value
            let fields = try reply.first?.decode(DBusProperties.self) ?? [:]
            if standardOutputIsTerminal { printImmediately("") }
            guard !fields.isEmpty else {
                // cuffd names nothing of a reading this uid may not read (docs/dbus-api.md, `Start`).
                printImmediately(json ? "{}" : "Stored: a new reading, which uid \(getuid()) may not read (an administrator grants with cuffctl grant)")
                return
            }
            let reading = ReadingOutput(fields: fields)
            printImmediately(json ? reading.json.rendered : "Stored: " + reading.line)
        }
    }

    /// Draws `measuring ████████░░░░ 120 mmHg` in place on a terminal, one line per change elsewhere.
    static func showProgress(_ changes: AsyncStream<DBusMessage>) async {
        var shown = ""
        for await change in changes {
            guard let changed = try? change.argument(1, as: DBusProperties.self) else { continue }
            let state = (try? changed.property("State", as: String.self)) ?? nil
            let pressure = ((try? changed.property("CuffPressure", as: Double.self)) ?? nil) ?? 0
            guard let state else { continue }
            let line = state == "measuring"
                ? "measuring \(bar(pressure)) \(Int(pressure.rounded())) mmHg"
                : describe(state, after: shown)
            // cuffd announces every change, some of them unchanged values: show each line once.
            guard line != shown else { continue }
            shown = line
            if standardOutputIsTerminal {
                printImmediately("\r\u{1B}[2K" + line, newline: false)
            } else {
                printImmediately(line)
            }
        }
    }

    /// A session state (docs/dbus-api.md, `Cuff1.State`) in the user's words; `subscribed` right after
    /// `measuring` means the cuff has finished and its reading is on its way.
    static func describe(_ state: String, after previous: String) -> String {
        switch state {
        case "disconnected": "waiting for the cuff to wake up"
        case "discovered": "the cuff is advertising"
        case "connecting": "connecting"
        case "resolving": "connected, reading its services"
        case "subscribed" where previous.hasPrefix("measuring"): "measured, storing the reading"
        case "subscribed": "connected, waiting for the measurement"
        default: TerminalText.escaped(state)
        }
    }

    /// A 30-cell bar over 0–300 mmHg (cuffs inflate to about 180–250).
    static func bar(_ pressure: Double) -> String {
        let filled = max(0, min(30, Int((pressure / 10).rounded())))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)
    }
}
