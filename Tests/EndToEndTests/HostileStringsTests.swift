import DBusTestSupport
import Foundation
import Testing

/// A cuff in radio range that names itself with terminal control sequences (scenarios/hostile-strings.json): what
/// cuffctl prints for people shows them escaped, one field on one line (docs/cuffctl.md, "Strings from devices"),
/// what it prints as JSON or CSV keeps them exact, and cuffd's journal MESSAGEs hold none.
@Suite("A cuff with hostile strings", .serialized)
struct HostileStringsTests {
    static let cuff = "E4:7F:B2:1B:5B:32"
    static let name = "\u{1B}]0;pwned\u{07}\u{1B}[2J\nX-Injected: 1"

    /// No character a terminal acts on (C0 but the line ends, DEL, C1, bidirectional controls), no forged line.
    static func expectSafe(_ output: String, _ command: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let unsafe = output.unicodeScalars.filter { scalar in
            scalar != "\n" && (scalar.properties.generalCategory == .control || (0x202A ... 0x202E).contains(scalar.value))
        }
        #expect(unsafe.isEmpty, "\(command): \(output.debugDescription)", sourceLocation: sourceLocation)
        #expect(!output.split(separator: "\n").contains { $0.hasPrefix("X-Injected") }, "\(command): \(output)", sourceLocation: sourceLocation)
    }

    @Test("scan, pair, devices, status and readings print the name and Device Information escaped; --json and CSV exact")
    func terminalOutput() async throws {
        // Nobody presses START: the cuff keeps its pairing link, which brings its Device Information and stored record,
        // until the test is done (its timeline would end the link 0.5 s after the subscription, during that provisioning).
        let stack = try await Stack.make(scenario: "hostile-strings.json", configuration: "[Journal]\nDetail=packets\n", manualStart: true)
        try await stack.startDaemon()
        let escapedName = #"\x1b]0;pwned\x07\x1b[2J\x0aX-Injected: 1"#

        let scan = try await stack.cuffctl(["scan", "--until", Self.cuff, "--timeout", "60"])
        #expect(scan.status == 0, "\(scan.error)")
        #expect(scan.output.contains("\(Self.cuff) \(escapedName)\n"), "\(scan.output.debugDescription)")
        Self.expectSafe(scan.output, "scan")

        let pair = try await stack.cuffctl(["pair", Self.cuff])
        #expect(pair.status == 0, "\(pair.error)")
        Self.expectSafe(pair.output + pair.error, "pair")

        let devices = try await stack.cuffctl(["devices"])
        #expect(devices.status == 0, "\(devices.error)")
        #expect(devices.output.contains("\(Self.cuff)  \(escapedName)  "), "\(devices.output.debugDescription)")
        #expect(devices.output.contains(#"cuffd \\x1b project \u202eKCAB SIM\x9b2J\x85"#), "\(devices.output.debugDescription)")
        Self.expectSafe(devices.output, "devices")

        let status = try await stack.cuffctl(["status"])
        #expect(status.status == 0 && status.output.contains(escapedName), "\(status.output.debugDescription)")
        Self.expectSafe(status.output, "status")

        let readings = try await stack.cuffctl(["readings"])
        #expect(readings.status == 0 && readings.output.contains(Self.cuff))
        Self.expectSafe(readings.output, "readings")

        let json = try await stack.cuffctl(["devices", "--json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let entry = try #require(listed.first { $0["address"] as? String == Self.cuff })
        #expect(entry["name"] as? String == Self.name)
        #expect(entry["serial"] as? String == "x\u{1B}[31mRED")
        #expect(entry["model"] as? String == "SIM\u{9B}2J\u{85}")

        let csv = try await stack.cuffctl(["export", "--format", "csv"])
        #expect(csv.status == 0 && csv.output.contains("x\u{1B}[31mRED"), "a data format carries the device's exact bytes")

        let messages = stack.journalEntries().compactMap { $0["MESSAGE"] }
        #expect(!messages.isEmpty)
        messages.forEach { Self.expectSafe($0, "journal MESSAGE") }
        #expect(try await stack.stopDaemon() == 0)
    }
}
