import DBusTestSupport
import Foundation
import Testing

/// Benchmarks/decode-benchmark as compare-decode runs it: the one built beside this test bundle.
@Suite("decode-benchmark")
struct DecodeBenchmarkTests {
    static let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("decode-benchmark").path

    static func allocations(_ characteristic: String, _ hex: String) async throws -> Double {
        let outcome = try await ExternalCommand.runDetached(
            Self.executable, ["--characteristic", characteristic, "--hex", hex, "--count", "2000", "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Double])
        #expect((printed["nsPerPacket"] ?? 0) > 0)
        return try #require(printed["allocationsPerPacket"])
    }

    /// The allocation counter sees allocations (a long string must be stored on the heap), and the blood
    /// pressure and heart rate decoders make none.
    @Test func countsAllocations() async throws {
        #expect(try await Self.allocations("2A29", String(repeating: "41", count: 40)) >= 1)
        #expect(try await Self.allocations("2A35", "1E 8A 00 58 00 78 00 00 00 04 11 14 29 3B 3C 00 01 27 00") == 0)
        #expect(try await Self.allocations("2A37", "19 4B 00 38 04 04 04 38 04 00 04") == 0)
    }

    /// A payload that does not decode, no count, or a bare scalar are usage errors, said on stderr.
    @Test(arguments: [
        ["--characteristic", "2A35", "--hex", "00", "--count", "10"],
        ["--characteristic", "2A35", "--hex", "00BDF00B009FF0", "--count", "0"],
        ["--characteristic", "sfloat", "--hex", "C8 E0"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async throws {
        let outcome = try await ExternalCommand.runDetached(Self.executable, arguments)
        #expect(outcome.status == 64)
        #expect(!outcome.standardError.isEmpty)
    }
}
