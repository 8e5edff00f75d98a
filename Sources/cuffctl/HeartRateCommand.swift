import ArgumentParser
import Foundation

/// `cuffctl heart-rate [--since --until --device --limit] [--json]`: the samples of heart-rate sensors, through
/// cuffd's `HeartRates` (docs/dbus-api.md), a page at a time.
struct HeartRateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heart-rate",
        abstract: "Show stored heart-rate samples of heart-rate sensors (what your uid may read).",
        discussion: """
            The pulse of a blood-pressure reading is shown by `readings`. Times are ISO 8601 or a date; a sample's \
            time is when cuffd received it (the sensor sends none). Values sent without skin contact are marked.
            """
    )

    @OptionGroup var bus: BusOptions
    @Option(help: "Only samples received at or after this time.") var since: String?
    @Option(help: "Only samples received before this time.") var until: String?
    @Option(help: "Only this sensor (its address).") var device: String?
    @Option(help: "Only the newest N.") var limit: UInt32?
    @Flag(help: "Print one JSON array.") var json = false

    func run() async throws {
        try await reportingFailures {
            let match = ReadingMatch(since: try since.map(ReadingsCommand.time), until: try until.map(ReadingsCommand.time), device: device)
            let pages = ReadingPages(cuffd: try CuffdConnection(bus), method: "HeartRates", filter: match.readingsFilter)
            var first = true
            if json { print("[", terminator: "") }
            func show(_ page: [ReadingOutput]) {
                for sample in page.map(HeartRateOutput.init) {
                    if json { print((first ? "" : ",") + sample.json.rendered, terminator: "") } else { print(sample.line) }
                    first = false
                }
            }
            if let limit { show(try await pages.newest(Int(limit))) } else { try await pages.forEach(show) }
            if json { print("]") }
        }
    }
}

/// `cuffctl reset-energy ADDRESS`: sets a heart-rate sensor's Energy Expended back to 0 through its Heart Rate
/// Control Point (docs/dbus-api.md, `ResetEnergyExpended`).
struct ResetEnergyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-energy",
        abstract: "Reset the Energy Expended a heart-rate sensor counts (its Heart Rate Control Point).",
        discussion: "Exit 69 when the sensor has no Heart Rate Control Point, 68 when cuffd does not know it."
    )

    @OptionGroup var bus: BusOptions
    @Argument(help: "The sensor's address.") var address: String

    func run() async throws {
        try await reportingFailures {
            _ = try await CuffdConnection(bus).call("ResetEnergyExpended", [.string(address)])
            print("Energy Expended of \(address.uppercased()) reset to 0")
        }
    }
}
