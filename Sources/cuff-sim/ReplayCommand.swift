import ArgumentParser
import Daemon
import Gateway
import HealthStore
import Logging
import ScenarioReplay
import SystemdSupport

/// `cuff-sim replay SCENARIO [--store PATH]`: plays a scenario through the Gateway into a store, without Bluetooth,
/// logging every reading as cuffd does (to the journal under systemd, stderr otherwise).
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a scenario through the Gateway into a health store, without Bluetooth.",
        discussion: """
            Each cuff connects, re-sends its stored records and runs its timeline; every reading is committed \
            to the store (deduplicated by sync identifier, so a second replay stores nothing new) and logged \
            with cuffd's journal fields. Exit codes: 0 done; 65 the scenario is invalid, or holds a recorded cuff \
            (play that with cuff-sim --scenario); 66 it cannot be read; \
            74 the store cannot be opened or written.
            """
    )

    @Argument(help: "A scenario file (docs/cuff-sim.md).")
    var scenario: String

    @Option(help: "The SQLite store to write (created 0600 if missing).")
    var store = "cuffd-replay.sqlite"

    func run() async throws {
        LogDestination.bootstrap(identifier: "cuff-sim")
        let logger = Logger(label: "cuff-sim.replay")
        let parsed = loadScenario(scenario)
        if let index = parsed.cuffs.firstIndex(where: { $0.recorded != nil }) {
            // A recorded conversation answers cuffd's own requests (docs/cuff-sim.md, "Recorded cuffs"): without the
            // Gateway asking, its writes never come and what follows them never plays.
            fail("\(scenario): cuffs[\(index)] is a recorded cuff, which only plays to cuffd over a bus: cuff-sim --scenario \(scenario), then cuffctl pair (docs/capture.md)", status: 65)
        }
        let healthStore: HealthStore
        do {
            healthStore = try HealthStore.open(path: store)
        } catch {
            fail("\(store): \(error)", status: 74)
        }
        let events = await ScenarioReplay(scenario: parsed).run(into: HealthStoreReadingStore(store: healthStore), logger: logger)
        var stored = 0, again = 0, failed = 0, refused = 0, heartRates = 0
        for event in events {
            switch event {
            case .readingStored(_, .stored): stored += 1
            case .readingStored(_, .alreadyStored): again += 1
            case .measurementFailed: failed += 1
            case .storeFailed, .heartRatesRefused: refused += 1
            case let .heartRatesStored(samples): heartRates += samples.count
            default: break
            }
        }
        let heartRateCount = heartRates > 0 ? ", \(heartRates) heart-rate value\(heartRates == 1 ? "" : "s")" : ""
        print("\(stored) reading\(stored == 1 ? "" : "s") stored, \(again) already stored, \(failed) failed measurement\(failed == 1 ? "" : "s")\(heartRateCount) — \(store)")
        if refused > 0 { throw ExitCode(74) }
    }
}
