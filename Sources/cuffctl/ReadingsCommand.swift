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
            if let limit { filter["limit"] = DBusVariant(limit) }
            let stored = try await cuffd.call("Readings", [filter.dbusValue])
            let readings = try (stored.first?.decode([DBusProperties].self) ?? []).map(ReadingOutput.init)
            if follow {
                try await self.follow(cuffd, filter: filter, printing: readings)
            } else if json {
                print(JSONValue.array(readings.map(\.json)).rendered)
            } else {
                readings.forEach { print($0.line) }
            }
        }
    }

    /// Prints what is stored, then, whenever `ReadingStored` says a cuff has a new reading, the newest readings
    /// not printed yet, read with the caller's own rights (the signal carries no values).
    private func follow(_ cuffd: CuffdConnection, filter: [String: DBusVariant], printing readings: [ReadingOutput]) async throws {
        let stored = try await cuffd.signals(MatchRule(sender: CuffdConnection.name, interface: CuffdConnection.interface, member: "ReadingStored"))
        var printed = Set(readings.compactMap { $0.string("syncIdentifier") })
        for reading in readings { emit(reading) }
        for await _ in stored {
            var newest = filter
            newest["limit"] = DBusVariant(UInt32(50))
            let reply = try await cuffd.call("Readings", [newest.dbusValue])
            for reading in try (reply.first?.decode([DBusProperties].self) ?? []).map(ReadingOutput.init) {
                guard let identifier = reading.string("syncIdentifier"), printed.insert(identifier).inserted else { continue }
                emit(reading)
            }
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
