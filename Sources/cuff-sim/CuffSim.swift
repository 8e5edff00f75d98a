import ArgumentParser
import CuffdVersion

/// `cuff-sim`: the emulated bluetoothd (`emulate`, the default: `cuff-sim --scenario FILE`), and a scenario played
/// straight into a store without Bluetooth (`replay`) — the project's tools for trying cuffd without a cuff, none
/// of them shipped (docs/cuff-sim.md).
@main
struct CuffSim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuff-sim",
        abstract: "An emulated bluetoothd with scripted blood-pressure cuffs, and their scenarios replayed into a store.",
        version: Release.version,
        subcommands: [EmulateCommand.self, ReplayCommand.self],
        defaultSubcommand: EmulateCommand.self)
}
