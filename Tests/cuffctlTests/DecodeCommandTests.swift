import Foundation
import Testing

@Suite("cuffctl decode")
struct DecodeCommandTests {
    /// Read once, never mutated.
    nonisolated(unsafe) static let vectors: [[String: Any]] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Vectors/TEST-VECTORS.json")
        return try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
    }()

    static let vectorIDs = vectors.map { $0["id"] as! String }

    /// Every vector through the command line: the JSON holds every expected field with the expected
    /// value; a vector the decoder must reject exits 65 with one line on stderr.
    @Test("every vector", arguments: vectorIDs)
    func vector(_ id: String) async throws {
        let vector = Self.vectors.first { $0["id"] as! String == id }!
        var arguments = ["decode", vector["characteristic"] as! String, vector["hex"] as! String, "--json"]
        if let quirk = vector["quirk"] as? String { arguments += ["--quirk", quirk] }
        let outcome = try await CuffctlProcess.run(arguments)
        guard vector["valid"] as! Bool else {
            #expect(outcome.status == 65)
            #expect(outcome.standardOutput.isEmpty)
            let lines = outcome.standardError.split(separator: "\n")
            #expect(lines.count == 1)
            #expect(outcome.standardError.contains("need at least"))
            return
        }
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let printed = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        for (key, expected) in vector["expected"] as! [String: Any] {
            let actual = try #require(printed[key], "\(key) missing")
            #expect(String(describing: actual) == String(describing: expected), "\(key)")
        }
    }

    @Test func everyCharacteristicFieldIsPresentAndAbsentOnesAreNull() async throws {
        let outcome = try await CuffctlProcess.run(["decode", "2A35", "00BDF00B009FF0", "--json"])
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        for key in ["characteristic", "unit", "systolic", "diastolic", "meanArterialPressure", "cuffPressure", "pulseRate",
                    "timestamp", "timestampKnown", "userID", "statusRaw", "heartRate", "sensorContact",
                    "energyExpended", "rrIntervals", "trailingBytes"] {
            #expect(printed[key] != nil, "\(key)")
        }
        #expect(printed["pulseRate"] is NSNull)
        #expect(printed["characteristic"] as? String == "2A35")
    }

    @Test func precisionSurvivesIntoTheJSONText() async throws {
        let outcome = try await CuffctlProcess.run(["decode", "sfloat", "C8 E0", "--json"])
        #expect(outcome.standardOutput.contains("\"value\":2.00"))
    }

    @Test(arguments: [
        ["2A35", "16 7C 00 56 00 61 00 E8 07 06 0F 11 11 1B 33 00 00 00"],
        ["2a35", "16:7C:00:56:00:61:00:E8:07:06:0F:11:11:1B:33:00:00:00"],
        ["blood-pressure-measurement", "167C0056006100E807060F11111B33000000"],
        ["00002a35-0000-1000-8000-00805f9b34fb", "167c0056006100e807060f11111b33000000"],
    ])
    func charactersticAndHexSpellings(_ arguments: [String]) async throws {
        let outcome = try await CuffctlProcess.run(["decode"] + arguments)
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("Blood Pressure Measurement (0x2A35)"))
        #expect(outcome.standardOutput.contains("systolic"))
        #expect(outcome.standardOutput.contains("124"))
        #expect(outcome.standardOutput.contains("2024-06-15T17:17:27"))
    }

    @Test(arguments: [
        ["decode", "2A99", "00"],
        ["decode", "2A35", "0"],
        ["decode", "2A35", "zz"],
        ["decode", "2A35", "00", "--quirk", "nonsense"],
        ["decode"],
        // Moved out of what ships: Benchmarks/decode-benchmark and `cuff-sim replay`.
        ["benchmark", "decode", "--characteristic", "2A35", "--hex", "00BDF00B009FF0"],
        ["replay", "scenarios/one-cuff.json"],
    ])
    func usageErrorsExit64(_ arguments: [String]) async throws {
        let outcome = try await CuffctlProcess.run(arguments)
        #expect(outcome.status == 64)
        #expect(!outcome.standardError.isEmpty)
    }

    @Test("A bad HEX says what is wrong and never echoes the argument whole")
    func badHexMessages() async throws {
        let odd = try await CuffctlProcess.run(["decode", "2A35", "1E 8A 0"])
        #expect(odd.status == 64)
        #expect(odd.standardError.contains("5 digits, an odd number"))
        let notHex = try await CuffctlProcess.run(["decode", "2A35", "1E 8A zz"])
        #expect(notHex.standardError.contains("byte 3, \"zz\""))
        let huge = try await CuffctlProcess.run(["decode", "2A35", String(repeating: "Z", count: 130_001)])
        #expect(huge.status == 64)
        #expect(huge.standardError.utf8.count < 200, "\(huge.standardError.prefix(300))")
    }

    @Test func humanOutputShowsAFailedMeasurementAsNaN() async throws {
        let outcome = try await CuffctlProcess.run(["decode", "2A35", "16FF07FF07FF07E80706170E230AFF070000"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("NaN"))
    }
}

@Suite("cuffctl doctor")
struct DoctorCommandTests {
    /// Whatever this machine has, the report names every check and the exit code agrees with it.
    @Test func theExitCodeMatchesTheReport() async throws {
        // A bus address that leads nowhere: the test must not touch this machine's system bus.
        let outcome = try await CuffctlProcess.run(["doctor", "--json", "--store", "/nonexistent/cuffd/health.sqlite", "--bus", "unix:path=/nonexistent/bus"])
        let checks = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: String]])
        #expect(checks.compactMap { $0["name"] }.contains("kernel"))
        #expect(checks.compactMap { $0["name"] }.suffix(5) == ["rfkill", "bus policy", "store", "clock", "bus"])
        #expect(checks.last?["status"] == "failure")
        let failed = checks.contains { $0["status"] == "failure" }
        #expect(outcome.status == (failed ? 69 : 0))
    }
}
