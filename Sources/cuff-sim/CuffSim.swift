import ArgumentParser
import CuffSimulation
import DBus
import Dispatch
import Foundation

/// `cuff-sim --scenario FILE [--bus ADDRESS]`: an emulated bluetoothd with scripted cuffs.
@main
struct CuffSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuff-sim",
        abstract: "An emulated bluetoothd (org.bluez) with scripted blood-pressure cuffs.",
        discussion: """
            Owns org.bluez on the bus and exports the object model of BlueZ 5.66 with the cuffs the \
            scenario describes (docs/cuff-sim.md). Runs until SIGINT or SIGTERM. Every event is \
            printed on standard output, one line each.

            Exit status: 0 after a signal; 64 usage error; 65 invalid scenario; 66 scenario file \
            unreadable; 69 the bus cannot be reached; 75 org.bluez is already owned on that bus.
            """)

    @Option(name: .long, help: "The scenario file (JSON, docs/cuff-sim.md).")
    var scenario: String

    @Option(name: .long, help: "The bus address (default: the system bus; libdbus honours DBUS_SYSTEM_BUS_ADDRESS).")
    var bus: String?

    func run() async throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: scenario))
        } catch {
            fail("cannot read \(scenario): \(error.localizedDescription)", status: 66)
        }
        let parsed: Scenario
        do {
            parsed = try Scenario.parse(data)
        } catch {
            fail("\(scenario): \(error)", status: 65)
        }
        let emulator = BluezEmulator(scenario: parsed, bus: bus.map { .address($0) } ?? .system) { line in
            FileHandle.standardOutput.write(Data("cuff-sim: \(line)\n".utf8))
        }
        do {
            try await emulator.start()
        } catch .nameTaken {
            fail(CuffSimError.nameTaken.description, status: 75)
        } catch {
            fail(error.description, status: 69)
        }
        await Self.waitForTerminationSignal()
        await emulator.stop()
    }

    private func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("cuff-sim: \(message)\n".utf8))
        Foundation.exit(status)
    }

    /// Returns on SIGINT or SIGTERM.
    private static func waitForTerminationSignal() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = ResumeOnce(continuation)
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
                source.setEventHandler { resumed.resume() }
                source.resume()
                sources.append(source)
            }
        }
    }

    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
}

/// Resumes a continuation on the first call only.
private final class ResumeOnce: @unchecked Sendable {
    private var continuation: CheckedContinuation<Void, Never>?
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func resume() {
        lock.withLock {
            continuation?.resume()
            continuation = nil
        }
    }
}
