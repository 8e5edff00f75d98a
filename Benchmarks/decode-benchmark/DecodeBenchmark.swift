import ArgumentParser
import DecodeArguments
import GATTHealth

/// `decode-benchmark --characteristic C --hex H [--count N] [--quirk NAME] [--every-field] [--json]`: decodes one
/// payload N times and prints nanoseconds and heap allocations per packet; Benchmarks/compare-decode runs it beside
/// the C reference. A program of its own, so that its malloc interposer (Benchmarks/CAllocationCounter) is in no program
/// that ships.
@main
struct DecodeBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode-benchmark",
        abstract: "Decode one payload many times; print ns and heap allocations per packet.",
        discussion: """
            Build with -c release for meaningful figures. Allocations are counted by interposing malloc \
            (Benchmarks/CAllocationCounter); every decoded value is handed to an opaque sink so the loop \
            cannot be optimised away.
            """
    )

    @Option(help: ArgumentHelp("The characteristic (2A35, a 128-bit UUID or a name).", valueName: "characteristic"))
    var characteristic: DecodeTarget

    @Option(help: ArgumentHelp("The payload in hex.", valueName: "hex"), transform: HexBytes.parse)
    var hex: HexBytes

    @Option(help: "How many times to decode it.")
    var count = 10_000_000

    @Option(help: "Decode with a device quirk (beurerByteSwapped).")
    var quirk: BloodPressureQuirk?

    @Flag(help: "Heart Rate Measurement only: read every field of each decoded value, as the C reference fills its struct.")
    var everyField = false

    @Flag(help: "Print {\"nsPerPacket\":x,\"allocationsPerPacket\":y}.")
    var json = false

    func validate() throws {
        guard count > 0 else { throw ValidationError("--count must be at least 1") }
        guard case let .characteristic(target) = characteristic else {
            throw ValidationError("decode-benchmark takes a characteristic, not a bare scalar")
        }
        guard !everyField || target == .heartRateMeasurement else {
            throw ValidationError("--every-field is for the Heart Rate Measurement (2A37) only")
        }
        do {
            _ = try DecodedCharacteristic.decode(target, hex.bytes, quirk: quirk)
        } catch {
            throw ValidationError("the payload does not decode: \(error)")
        }
    }

    func run() throws {
        guard case let .characteristic(target) = characteristic else { return }
        let result = DecodeLoop(characteristic: target, bytes: hex.bytes, quirk: quirk, everyField: everyField)
            .measure(count: count)
        let nanoseconds = format3(result.nanosecondsPerPacket)
        let allocations = format3(result.allocationsPerPacket)
        if json {
            print("{\"nsPerPacket\":\(nanoseconds),\"allocationsPerPacket\":\(allocations)}")
        } else {
            print("\(target.name): \(count) packets, \(nanoseconds) ns and \(allocations) heap allocations per packet")
        }
    }
}

/// `value` with three decimals.
private func format3(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    return "\(thousandths / 1000).\(pad3(thousandths % 1000))"
}

private func pad3(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: 3 - digits.count) + digits
}
