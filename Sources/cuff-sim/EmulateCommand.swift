import ArgumentParser
import CuffSimulation
import DBus
import Foundation
import Logging
import ServiceLifecycle

/// `cuff-sim [emulate] --scenario FILE [--bus ADDRESS] [--manual-start]`: an emulated bluetoothd with scripted cuffs, cuff-sim's
/// default command.
struct EmulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "emulate",
        abstract: "An emulated bluetoothd (org.bluez) with scripted blood-pressure cuffs.",
        discussion: """
            Owns org.bluez on the bus and exports the object model of BlueZ 5.66 with the cuffs the \
            scenario describes (docs/cuff-sim.md). With --manual-start, a timeline waits at each pressStart \
            step until a driver calls PressStart(address) on org.cuffd.Simulation /org/cuffd/Simulation1. \
            Runs until SIGINT or SIGTERM. Every event is \
            printed on standard output, one line each. With --check, only validates the file.

            Exit status: 0 after a signal (or a valid file with --check); 64 usage error; 65 invalid \
            scenario; 66 scenario file unreadable; 69 the bus cannot be reached (or, with \
            --manual-start, org.cuffd.Simulation is owned already); 75 org.bluez is already owned on that bus.
            """)

    @Option(name: .long, help: "The scenario file (JSON, docs/cuff-sim.md).")
    var scenario: String?

    @Option(name: .long, help: ArgumentHelp("Validate a scenario file and exit, without a bus.", valueName: "file"))
    var check: String?

    @Option(name: .long, help: "The bus address (default: the system bus; libdbus honours DBUS_SYSTEM_BUS_ADDRESS).")
    var bus: String?

    @Flag(name: .long, help: "A timeline's pressStart step waits for org.cuffd.Simulation1.PressStart on the bus (docs/cuff-sim.md).")
    var manualStart = false

    func validate() throws {
        guard (scenario == nil) != (check == nil) else {
            throw ValidationError("Give either --scenario FILE or --check FILE.")
        }
        guard check == nil || (bus == nil && !manualStart) else { throw ValidationError("--check uses no bus.") }
    }

    func run() async throws {
        // validate() made sure exactly one of the two is given.
        let parsed = loadScenario(check ?? scenario ?? "")
        if let check {
            print("\(check): valid, \(parsed.cuffs.count) cuff(s)")
            return
        }
        let emulator = BluezEmulator(scenario: parsed, bus: bus.map { .address($0) } ?? .system, manualStart: manualStart) { line in
            FileHandle.standardOutput.write(Data("cuff-sim: \(line)\n".utf8))
        }
        // SIGTERM and SIGINT end it through ServiceLifecycle, as they end cuffd. The group traps them before it runs
        // the emulator, which only then takes org.bluez: whoever sees the name may stop cuff-sim at once.
        let group = ServiceGroup(configuration: .init(
            services: [EmulatorService(emulator: emulator)], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "cuff-sim")))
        try await group.run()
    }
}

/// The emulator as a service of the group: it takes org.bluez, runs until a graceful shutdown, then takes org.bluez off
/// the bus. Exits 75 when the name is already owned, 69 when the bus cannot be reached.
private struct EmulatorService: Service {
    let emulator: BluezEmulator

    func run() async throws {
        do {
            try await emulator.start()
        } catch .nameTaken {
            fail(CuffSimError.nameTaken.description, status: 75)
        } catch {
            fail(error.description, status: 69)
        }
        try? await gracefulShutdown()
        await emulator.stop()
    }
}
