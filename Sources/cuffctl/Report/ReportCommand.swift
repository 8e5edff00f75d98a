import ArgumentParser
import Foundation

/// `cuffctl report [--since 30d] [--person NAME] [--output report.html]` (docs/report.md): one self-contained HTML
/// page a person hands to their doctor, from the readings the caller may read.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a page for your doctor: a trend chart, home-monitoring averages and every reading of a period.",
        discussion: "DATE is ISO 8601 or a span back from now (30d, 12w). With --output the file appears only once complete; what --output may be is as for export. See docs/report.md."
    )

    @OptionGroup var source: ReadingSource
    @Option(help: "Readings measured at or after DATE.") var since = "30d"
    @Option(help: "Readings measured before DATE (default: now).") var until: String?
    @Option(help: "Only the readings of this person.") var person: String?
    @Option(help: "Only this cuff (its address).") var device: String?
    @Option(help: "Write to FILE (replaced once complete), a character device (written through), or - (standard output).") var output: String?

    func run() async throws {
        try await reportingFailures {
            let now = Date()
            let start = try DateArgument.parse(since, now: now)
            let end = try until.map { try DateArgument.parse($0, now: now) } ?? now
            guard start <= end else { throw CuffctlFailure(message: "--since \(since) is after --until \(until ?? "now")", status: ExitStatus.usage) }
            let match = ReadingMatch(since: start, until: end, device: device, user: nil, person: person)
            var readings: [ReportReading] = []
            try await source.pages(match.readingsFilter).forEach { page in
                readings += page.filter(match.matches).compactMap(ReportReading.init)
            }
            var heartRates: [HeartRateOutput] = []
            try await source.pages(match.readingsFilter, heartRates: true).forEach { page in
                heartRates += page.filter(match.matches).map(HeartRateOutput.init)
            }
            let page = ReportPage(readings: readings, period: (start, end), person: person, zone: .current, heartRates: heartRates)
            let destination = try output.map(ExportDestination.init(path:)) ?? ExportDestination()
            defer { destination.discard() }
            try destination.write(page.html)
            try destination.commit()
        }
    }
}
