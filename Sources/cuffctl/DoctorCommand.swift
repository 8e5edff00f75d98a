import ArgumentParser
import Diagnostics
import TerminalEscaping

/// `cuffctl doctor [--store PATH] [--json]`: checks this machine the way cuffd needs it.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the kernel, adapters, rfkill, bus policy, store, clock, bluetoothd and cuffd.",
        discussion: "Exit codes: 0 nothing failed (warnings may remain); 69 a check failed (sysexits EX_UNAVAILABLE)."
    )

    @Option(help: "The store cuffd uses.")
    var store = "/var/lib/cuffd/health.sqlite"

    @Flag(help: "Print a JSON array of {name, status, detail}.")
    var json = false

    @OptionGroup var bus: BusOptions

    func run() async throws {
        let results = Doctor(machine: .current(storePath: store)).run() + (await DaemonChecks.run(bus))
        if json {
            print(JSONValue.array(results.map { result in
                .object([("name", .string(result.name)), ("status", .string(result.status.rawValue)), ("detail", .string(result.detail))])
            }).rendered)
        } else {
            let width = results.map(\.name.count).max() ?? 0
            for result in results {
                let mark = switch result.status {
                case .ok: "ok  "
                case .warning: "warn"
                case .failure: "FAIL"
                }
                print("\(mark)  \(result.name)\(String(repeating: " ", count: width - result.name.count))  \(TerminalText.escaped(result.detail))")
            }
        }
        if results.contains(where: { $0.status == .failure }) { throw ExitStatus.unavailable }
    }
}
