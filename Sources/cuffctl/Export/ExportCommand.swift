import ArgumentParser
import Foundation

/// `cuffctl export --format fhir|omh|csv` (docs/export.md): the readings the caller may read, page by page
/// from cuffd's `Readings`, each page written out as it comes.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export stored readings (what your uid may read) as CSV, a FHIR R4 Bundle or Open mHealth data points.",
        discussion: """
            DATE is ISO 8601 (2026-11-23T07:15:00+01:00, 2026-11-23) or a span back from now (12h, 30d, 12w). \
            With --output the file appears only once complete (mode 0600); a FIFO, socket, block device, directory or \
            symbolic link to a file is refused; exit 73 when it cannot be written. See docs/export.md.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, fhir, omh
    }

    /// What an export holds: blood-pressure readings, heart-rate sensors' samples, or both (not in one CSV,
    /// whose columns are one kind's).
    enum Content: String, ExpressibleByArgument, CaseIterable {
        case readings, heartRate = "heart-rate", all

        var readings: Bool { self != .heartRate }
        var heartRates: Bool { self != .readings }
    }

    @OptionGroup var source: ReadingSource
    @Option(help: "csv, fhir or omh.") var format: Format
    @OptionGroup var window: ReadingWindow
    @Option(help: "Only the readings of this person (as cuffd.conf maps the cuff's users).") var person: String?
    @Option(help: "Only this User ID of the cuff (0–254).") var user: UInt8?
    @Option(help: "Write to FILE (replaced once complete), a character device (written through), or - (standard output).") var output: String?
    @Option(help: "readings (blood pressure), heart-rate (heart-rate sensors' samples) or all (fhir and omh).") var data: Content = .readings
    @Flag(help: "omh: one data point per line instead of one JSON array.") var ndjson = false
    @Option(help: "fhir: a collection Bundle, or a transaction of conditional creates.") var fhirBundle: FHIRBundleExport.Kind = .collection
    @Flag(help: "Leave out readings excluded with cuffctl annotate --exclude (omh always does).") var withoutExcluded = false

    func validate() throws {
        if ndjson && format != .omh { throw ValidationError("--ndjson is for --format omh") }
        if fhirBundle != .collection && format != .fhir { throw ValidationError("--fhir-bundle is for --format fhir") }
        if data == .all && format == .csv { throw ValidationError("--data all is for fhir and omh; a CSV holds readings or heart-rate") }
    }

    func run() async throws {
        try await reportingFailures {
            let now = Date()
            let match = try window.match(user: user, person: person, now: now)
            let readings = try data.readings ? source.pages(match.readingsFilter) : nil
            let heartRates = try data.heartRates ? source.pages(match.readingsFilter, heartRates: true) : nil
            let destination = try output.map(ExportDestination.init(path:)) ?? ExportDestination()
            defer { destination.discard() }
            var formatter = formatter(created: now)
            try destination.write(formatter.opening)
            var output: [UInt8] = []
            try await readings?.forEach { page in
                output.removeAll(keepingCapacity: true)
                for reading in page where match.matches(reading) && !(withoutExcluded && reading.string("exclusionReason") != nil) {
                    formatter.append(reading, to: &output)
                }
                try destination.write(output)
            }
            try await heartRates?.forEach { page in
                output.removeAll(keepingCapacity: true)
                for sample in page where match.matches(sample) { formatter.appendHeartRate(HeartRateOutput(sample), to: &output) }
                try destination.write(output)
            }
            try destination.write(formatter.closing)
            try destination.commit()
        }
    }

    private func formatter(created: Date) -> any ExportFormatter {
        switch format {
        case .csv: CSVExport(content: data == .heartRate ? .heartRate : .readings)
        case .fhir: FHIRBundleExport(kind: fhirBundle)
        case .omh: OpenMHealthExport(ndjson: ndjson, created: created)
        }
    }
}

extension FHIRBundleExport.Kind: ExpressibleByArgument {}
