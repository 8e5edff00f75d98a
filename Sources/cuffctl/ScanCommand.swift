import ArgumentParser
import BlueZ
import DBus

/// `cuffctl scan [--timeout S] [--until ADDRESS]… [--json]`: discover cuffs nearby, each with what cuffd recognises it
/// as and whether it reads it (docs/compatibility.md); with `--until`, until the cuffs named are seen (docs/cuffctl.md).
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "Discover cuffs nearby: the model as recognised, and whether cuffd reads it.",
        discussion: """
            The scan lasts --timeout seconds (up to 120). With --until ADDRESS (repeatable) it ends as soon as every \
            cuff named is listed — one bluetoothd holds already counts at once —, --timeout bounding it; the cuffs \
            seen are listed either way, and exit 68 says which named cuff was not seen in time.
            """)
    @OptionGroup var bus: BusOptions
    @Option(help: "Seconds to scan; with --until, at most.") var timeout: Double = 10
    @Option(help: ArgumentHelp("End the scan once the cuff at this address is seen (repeatable: once all are seen).", valueName: "address"))
    var until: [String] = []
    @Flag(help: "Print JSON.") var json = false

    /// What to check when a cuff is not seen.
    static let advertising = "is it advertising (in pairing mode, or after a measurement)?"

    func validate() throws {
        for address in until where BluetoothAddress(address) == nil {
            throw ValidationError("--until takes a cuff's address like C4:F3:12:53:F2:C9, not \"\(address)\"")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let awaited = until.compactMap(BluetoothAddress.init)
            let reply = try await CuffdConnection(bus).call(
                "Scan", [.double(timeout), .strings(awaited.map(\.description))], timeout: .seconds(timeout + 10))
            let seen = try (reply.first?.decode([DBusProperties].self) ?? []).map(ScannedDevice.init)
            if json {
                print(JSONValue.array(seen.map(\.json)).rendered)
            } else {
                if seen.isEmpty { print("No cuff seen: \(Self.advertising)") }
                seen.flatMap(\.lines).forEach { print($0) }
            }
            let listed = Set(seen.compactMap { BluetoothAddress($0.text("address")) })
            let missing = Set(awaited).subtracting(listed).sorted()
            guard missing.isEmpty else {
                throw CuffctlFailure(
                    message: "not seen within \(timeout) s: \(missing.map(\.description).joined(separator: ", ")) (\(Self.advertising))",
                    status: ExitStatus.unknownDevice)
            }
        }
    }
}
