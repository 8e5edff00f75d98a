import ArgumentParser
import DBus
import Foundation

/// `cuffctl readings [--since --until --device --user --limit --follow] [--json]`.
struct ReadingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "readings",
        abstract: "Show stored blood-pressure readings (what your uid may read).",
        discussion: "Times are ISO 8601 (2026-11-23T07:15:00+01:00) or a date (2026-11-23). --json prints one array; with --follow, one object per line."
    )

    @OptionGroup var bus: BusOptions
    @Option(help: "Only readings measured at or after this time.") var since: String?
    @Option(help: "Only readings measured before this time.") var until: String?
    @Option(help: "Only this cuff (its address).") var device: String?
    @Option(help: "Only this User ID of the cuff (0–254).") var user: UInt8?
    @Option(help: "Only the newest N.") var limit: UInt32?
    @Flag(help: "Keep running and print each new reading as it is stored.") var follow = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        try await reportingFailures {
            let cuffd = try CuffdConnection(bus)
            var filter: [String: DBusVariant] = [:]
            if let since { filter["since"] = DBusVariant(try Self.time(since).timeIntervalSince1970) }
            if let until { filter["until"] = DBusVariant(try Self.time(until).timeIntervalSince1970) }
            if let device { filter["device"] = DBusVariant(device) }
            if let user { filter["user"] = DBusVariant(user) }
            let pages = ReadingPages(cuffd: cuffd, filter: filter)
            if follow {
                try await self.follow(cuffd, filter: filter, printing: limit == nil ? nil : try await pages.newest(Int(limit!)))
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

    /// Prints what is stored (the newest `limit`, or everything), then, whenever `ReadingStored` says a cuff has a
    /// new reading, the newest readings not printed yet, read with the caller's own rights (the signal carries no
    /// values).
    private func follow(_ cuffd: CuffdConnection, filter: [String: DBusVariant], printing newest: [ReadingOutput]?) async throws {
        let stored = try await cuffd.signals(MatchRule(sender: CuffdConnection.name, interface: CuffdConnection.interface, member: "ReadingStored"))
        var printed = Set<String>()
        func show(_ readings: [ReadingOutput]) {
            for reading in readings {
                guard let identifier = reading.string("syncIdentifier"), printed.insert(identifier).inserted else { continue }
                emit(reading)
            }
        }
        if let newest { show(newest) } else { try await ReadingPages(cuffd: cuffd, filter: filter).forEach(show) }
        for await _ in stored {
            var newest = filter
            newest["limit"] = DBusVariant(UInt32(50))
            let reply = try await cuffd.call("Readings", [newest.dbusValue])
            show(try (reply.first?.decode([DBusProperties].self) ?? []).map(ReadingOutput.init))
        }
    }

    private func emit(_ reading: ReadingOutput) {
        printImmediately(json ? reading.json.rendered : reading.line)
    }

    static func time(_ text: String) throws -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let day = try? Date(text, strategy: Date.ISO8601FormatStyle(timeZone: .current).year().month().day()) { return day }
        throw CuffctlFailure(message: "\"\(text)\" is not a time like 2026-11-23T07:15:00+01:00 or a date like 2026-11-23", status: ExitStatus.usage)
    }
}
