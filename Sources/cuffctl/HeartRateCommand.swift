import ArgumentParser
import DBus
import Foundation

/// `cuffctl heart-rate [--since --until --device --limit] [--json]`: the samples of heart-rate sensors, through
/// cuffd's `HeartRates` (docs/dbus-api.md), a page at a time.
struct HeartRateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heart-rate",
        abstract: "Show stored heart-rate samples of heart-rate sensors (what your uid may read).",
        discussion: """
            The pulse of a blood-pressure reading is shown by `readings`. DATE as for `readings`; a sample's \
            time is when cuffd received it (the sensor sends none). Values sent without skin contact are marked.
            """
    )

    @OptionGroup var bus: BusOptions
    @OptionGroup var window: ReadingWindow
    @Option(help: "Only the newest N.") var limit: UInt32?
    @Flag(help: "Keep running and print each new sample as it is stored.") var follow = false
    @Flag(help: "Print one JSON array; with --follow, one object per line.") var json = false

    func run() async throws {
        try await reportingFailures {
            let match = try window.match()
            let cuffd = try CuffdConnection(bus)
            let pages = ReadingPages(cuffd: cuffd, heartRates: true, filter: match.readingsFilter)
            if follow { return try await printStored(cuffd, pages: pages) }
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

    /// Prints the newest N (with `--limit`) or nothing of what is stored, then each sample stored from now on:
    /// whenever `HeartRatesStored` announces a batch, the samples after the last one printed, read with the
    /// caller's rights (a sample's place in the order is its receive time, so new ones always come after).
    private func printStored(_ cuffd: CuffdConnection, pages: ReadingPages) async throws {
        let stored = try await cuffd.signals(MatchRule(sender: CuffdConnection.name, interface: CuffdConnection.interface, member: "HeartRatesStored"))
        let newest = try await pages.newest(Int(limit ?? 1))
        if limit != nil { newest.forEach(emit) }
        var after = newest.last?.string("cursor") ?? ""
        for await _ in stored {
            try await pages.forEach(after: after) { page in
                page.forEach(emit)
                if let cursor = page.last?.string("cursor") { after = cursor }
            }
        }
    }

    private func emit(_ sample: ReadingOutput) {
        let output = HeartRateOutput(sample)
        printImmediately(json ? output.json.rendered : output.line)
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
