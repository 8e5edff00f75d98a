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
