import ArgumentParser
import DBus

/// `cuffctl capture ADDRESS [--output FILE] [--links N] [--seconds N] [--keep-identity]` (docs/capture.md): what a cuff sends, as
/// a cuff-sim scenario to attach to a bug report.
struct CaptureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Record what a cuff sends and is sent, as a cuff-sim scenario for a bug report (administrators).",
        discussion: """
            cuffd walks the cuff's GATT database, subscribes to everything it can send and records each value and \
            write, until the cuff disconnects (at most 10 minutes); with --links N, across its links until N of them \
            have ended (at most 10 minutes); with --seconds, for that long across its links; with both, until \
            whichever comes first. Readings are stored as usual meanwhile. The addresses, serial number and System ID \
            are replaced unless --keep-identity. Replay: cuff-sim --scenario FILE. With --output the file appears only \
            once complete (mode 0600); exit 73 when it cannot be written. See docs/capture.md.
            """
    )

    @OptionGroup var bus: BusOptions
    @Argument(help: "The cuff's address, e.g. C4:F3:12:53:F2:C9.") var address: String
    @Option(help: "Write to FILE instead of standard output.") var output: String?
    @Option(help: "Record until N of the cuff's links have ended (1-100), following it across link drops.") var links: Int?
    @Option(help: "Record this many seconds (up to 3600), following the cuff across link drops; with --links, at most that long.") var seconds: Double?
    @Flag(help: "Keep the addresses, serial number and System ID (replaced by default).") var keepIdentity = false

    func validate() throws {
        if let seconds, !(seconds > 0 && seconds <= 3600) { throw ValidationError("--seconds is more than 0 and at most 3600") }
        if let links, !(1...100).contains(links) { throw ValidationError("--links is from 1 to 100") }
    }

    func run() async throws {
        try await reportingFailures {
            let destination = try output.map(ExportDestination.init(path:)) ?? ExportDestination()
            defer { destination.discard() }
            let cuffd = try CuffdConnection(bus)
            printToStandardError("cuffctl: capturing \(address.uppercased()) \(until)")
            let reply = try await cuffd.call(
                "Capture", [.string(address.uppercased()), .double(seconds ?? 0), .uint32(UInt32(links ?? 0)), .boolean(keepIdentity)],
                timeout: .seconds((seconds ?? 600) + 60))
            guard reply.count == 2, let scenario = try? reply[0].decode(String.self), let notes = try? reply[1].decode([String].self) else {
                throw CuffctlFailure.failed("Capture answered \(reply)")
            }
            for note in notes { printToStandardError("cuffctl: the capture is incomplete: \(note)") }
            try destination.write(scenario)
            try destination.commit()
        }
    }

    /// When the capture ends, in words.
    private var until: String {
        switch (links, seconds) {
        case let (links?, seconds?): "until \(links) of its links have ended, at most \(seconds) s"
        case let (links?, nil): "until \(links) of its links have ended (at most 600 s): wake the cuff (press START) if it sleeps"
        case let (nil, seconds?): "for \(seconds) s"
        case (nil, nil): "until it disconnects: wake the cuff (press START) if it sleeps"
        }
    }
}
