import ArgumentParser
import DBus
import Foundation

/// `cuffctl readings [--since --until --device --user --limit --follow] [--json]`.
struct ReadingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readings",
        abstract: "Show stored blood-pressure readings (what your uid may read).",
        discussion: "DATE is ISO 8601 (2026-11-23T07:15:00+01:00), a date (2026-11-23) or a span back from now (30d). --json prints one array; with --follow, one object per line."
    )

    @OptionGroup var bus: BusOptions
    @OptionGroup var window: ReadingWindow
    @Option(help: "Only this User ID of the cuff (0–254).") var user: UInt8?
    @Option(help: "Only the newest N.") var limit: UInt32?
    @Flag(help: "Keep running and print each new reading as it is stored.") var follow = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let cuffd = try CuffdConnection(bus)
            let pages = ReadingPages(cuffd: cuffd, filter: try match.readingsFilter)
            if follow {
                try await self.follow(cuffd, pages: pages)
            } else if let limit {
                let readings = try await pages.newest(Int(limit))
                if json { print(JSONValue.array(readings.map(\.json)).rendered) } else { readings.forEach { print($0.line) } }
            } else {
                // Everything, a page at a time; JSON as one array written as the pages come.
                var first = true
                if json { print("[", terminator: "") }
                try await pages.forEach { page in
                    for reading in page {
                        if json { print((first ? "" : ",") + reading.json.rendered, terminator: "") } else { print(reading.line) }
                        first = false
                    }
                }
                if json { print("]") }
            }
        }
    }

    /// With `--limit N`, prints the newest N, else every stored reading in the order it was stored; then each
    /// reading as cuffd stores or revises it, read from the change feed with the caller's own rights whenever
    /// `ReadingStored` or `ReadingsChanged` announces one (the signals carry no values).
    private func follow(_ cuffd: CuffdConnection, pages: ReadingPages) async throws {
        let stored = try await cuffd.signals(
            MatchRule(sender: CuffdConnection.name, interface: CuffdConnection.interface, member: "ReadingStored"),
            MatchRule(sender: CuffdConnection.name, interface: CuffdConnection.interface, member: "ReadingsChanged"))
        var feed = ChangeFeed(cuffd: cuffd)
        // The newest N were read after the feed's anchor: the first pass may bring some of them again.
        var shown = Set<String>()
        if let limit {
            feed = try await ChangeFeed.fromNow(cuffd)
            let newest = try await pages.newest(Int(limit))
            newest.forEach(emit)
            shown = Set(newest.compactMap { $0.string("syncIdentifier") })
        }
        let filter = try match
        func show(_ page: [ReadingOutput]) {
            for reading in page where filter.matches(reading) && !shown.contains(reading.string("syncIdentifier") ?? "") { emit(reading) }
        }
        try await feed.drain(show)
        shown = []
        for await _ in stored { try await feed.drain(show) }
    }

    private var match: ReadingMatch {
        get throws { try window.match(user: user) }
    }

    private func emit(_ reading: ReadingOutput) {
        printImmediately(json ? reading.json.rendered : reading.line)
    }
}
