import ArgumentParser
import DecodeArguments
import GATTHealth

/// `cuffctl decode CHARACTERISTIC HEX [--json] [--quirk NAME]`.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode one GATT characteristic value.",
        discussion: """
            CHARACTERISTIC is a 16-bit UUID (2A35), a 128-bit UUID, a name (blood-pressure-measurement), \
            or sfloat / float for a bare IEEE 11073 number. HEX may contain spaces or colons.
            Exit codes: 0 decoded; 64 usage error; 65 malformed payload (one line on stderr).
            """
    )

    @Argument(help: ArgumentHelp("The characteristic to decode as.", valueName: "characteristic"))
    var target: DecodeTarget

    @Argument(help: ArgumentHelp("The value as received, in hex.", valueName: "hex"))
    var hex: String

    @Flag(help: "Print one JSON object (field names as in TEST-VECTORS.json) instead of text.")
    var json = false

    @Option(help: "Decode with a device quirk (beurerByteSwapped).")
    var quirk: BloodPressureQuirk?

    func run() throws {
        let report: DecodeReport
        let payload: HexBytes
        do {
            payload = try HexBytes.parse(hex)
        } catch {
            printToStandardError("cuffctl decode: \(error)")
            throw ExitStatus.usage
        }
        do {
            report = try DecodeReport(target, payload.bytes, quirk: quirk)
        } catch {
            printToStandardError(error.description)
            throw ExitStatus.malformedPayload
        }
        print(json ? report.json.rendered : report.text)
    }
}
