import CuffSimulation
import DBusTestSupport
import Foundation
import Testing

/// A heart-rate strap (0x180D only) over cuff-sim, cuffd and cuffctl: its values end up in the store once each,
/// with their skin contact and RR intervals, in `cuffctl heart-rate`, and as one journal summary — not one
/// entry per value.
@Suite("A heart-rate strap through cuffd", .serialized)
struct HeartRateTests {
    static let strap = "E8:3C:A1:07:6D:21"
    /// strap.json's last step: the strap ends the link.
    static let linkEnd = "{\"after\": 16.0, \"disconnect\": true}"

    /// `heart-rate --json` as objects.
    func heartRates(_ stack: Stack) async throws -> [[String: Any]] {
        let outcome = try await stack.cuffctl(["heart-rate", "--json"])
        guard outcome.status == 0 else { throw TestFailure("heart-rate exited \(outcome.status): \(outcome.error)") }
        return try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]] ?? []
    }

    /// The journal's heart-rate summaries so far.
    static func summaries(_ stack: Stack) -> [[String: String]] {
        stack.journalEntries().filter { $0["MESSAGE_ID"] == "6f42722595bb48739b46beb5d46978a2" }
    }

    /// How many values the summaries so far count.
    static func summarized(_ stack: Stack) -> Int {
        summaries(stack).compactMap { $0["HR_COUNT"].flatMap { Int($0) } }.reduce(0, +)
    }

    @Test("pair the strap: every plausible value stored once, marked when without contact, summarized in the journal")
    func strapStreams() async throws {
        // The strap holds its link after its last value until the test presses START (docs/cuff-sim.md, "START pressed by
        // the driver"), which it does once the reset has been written: the reset goes over a link that is still up
        // however long `pair` and `reset-energy` took, instead of racing the strap's own end of the link.
        let stack = try await Stack.make(
            scenario: "strap.json", edits: [Self.linkEnd: "{\"after\": 15.5, \"pressStart\": true},\n      " + Self.linkEnd], manualStart: true)
        try await stack.startDaemon()
        // --limit: what is stored when it has subscribed is printed first, so that it misses nothing however late
        // that is; everything stored afterwards as it is stored.
        let follow = try stack.startCuffctl(["heart-rate", "--follow", "--json", "--limit", "1000"], log: "follow.log")
        let pair = try await stack.cuffctl(["pair", Self.strap])
        #expect(pair.status == 0, "\(pair.error)")
        // While the strap streams (its link is up), its Energy Expended is reset through the control point.
        let reset = try await stack.cuffctl(["reset-energy", Self.strap])
        #expect(reset.status == 0, "\(reset.error)")
        try await stack.wait(for: "written: 01 (Energy Expended reset)", in: "cuff-sim.log")
        try await stack.pressStart(Self.strap)
        let expected = try #require(Scenario.parse(Data(contentsOf: stack.scenario)).expect?.heartRates)
        // The link's end commits what waits and ends the summary: the journal then counts every value stored.
        try await stack.journal.received.wait(for: "summaries of \(expected) values:\n\(stack.text("cuffd.log"))") { _ in
            Self.summarized(stack) >= expected ? () : nil
        }
        let samples = try await heartRates(stack)
        #expect(samples.count == expected, "\(stack.text("cuffd.log"))")
        // heart-rate --follow, started before the strap was paired, printed every sample once as its batch was stored.
        let last = samples.last?["syncIdentifier"] as? String ?? "?"
        try await stack.wait(for: last, in: "follow.log")
        follow.terminate()
        let followed = stack.text("follow.log").split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(followed.compactMap { $0["syncIdentifier"] as? String } == samples.compactMap { $0["syncIdentifier"] as? String })
        #expect(Set(samples.compactMap { $0["syncIdentifier"] as? String }).count == samples.count)
        let first = try #require(samples.first)
        #expect(first["heartRate"] as? Double == 62)
        #expect(first["sensorContact"] as? String == "detected")
        #expect(first["energyExpended"] as? Int == 0)
        #expect(first["rrIntervals"] as? [Int] == [991])
        let device = try #require(first["device"] as? [String: Any])
        #expect(device["address"] as? String == Self.strap)
        #expect(device["model"] as? String == "SIM-HR")
        #expect(samples.filter { $0["sensorContact"] as? String == "notDetected" }.count == 4)
        #expect(!samples.contains { $0["heartRate"] as? Double == 0 }, "0/min is no heart rate")
        let times = samples.compactMap { $0["time"] as? String }
        #expect(times == times.sorted() && times.count == samples.count)

        // The journal: summaries whose counts add up to the samples, with the values without contact apart.
        let summaries = Self.summaries(stack)
        #expect(Self.summarized(stack) == expected)
        #expect(summaries.compactMap { $0["HR_WITHOUT_CONTACT"].flatMap { Int($0) } }.reduce(0, +) == 4)
        #expect(summaries.allSatisfy { $0["HR_DEVICE"] == Self.strap })
        // Statistics: the sensor's values with contact, apart from the (absent) pulse of readings.
        let stats = try await stack.cuffctl(["stats", "--json"])
        let table = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]], "\(stats.error)")
        #expect(table["heartRate"]?["count"] as? Int == expected - 4, "values without contact are not in the statistics")
        #expect(table["pulse"]?["count"] as? Int == 0)
        // Blood-pressure readings stay apart: a strap makes none.
        #expect(try await stack.readings().isEmpty)
        try await exports(stack)
        #expect(try await stack.cuffctl(["reset-energy", "00:11:22:33:44:55"]).status == 68)
        #expect(try await stack.stopDaemon() == 0)
    }

    /// `export --data heart-rate` in every format, read back by the independent checker against `heart-rate --json`.
    func exports(_ stack: Stack) async throws {
        try #require(ExternalCommand.exists("python3"))
        let listed = try await stack.cuffctl(["heart-rate", "--json"])
        let samples = stack.directory.appendingPathComponent("heart-rate.json")
        try Data(listed.output.utf8).write(to: samples)
        for format in ["csv", "fhir", "omh"] {
            let path = stack.directory.appendingPathComponent("export-heart-rate.\(format)").path
            let outcome = try await stack.cuffctl(["export", "--format", format, "--data", "heart-rate", "--output", path])
            #expect(outcome.status == 0, "\(format): \(outcome.error)")
            let result = try await ExternalCommand.runDetached("python3", [ExportTests.checker, "heart-rate-" + format, path, samples.path], timeout: 300)
            #expect(result.status == 0 && result.standardOutput == "ok 58\n", "\(format): \(result.standardOutput)\(result.standardError)")
        }
        // A strap makes no readings: everything is its samples.
        let all = try await stack.cuffctl(["export", "--format", "fhir", "--data", "all"])
        let heartRate = try await stack.cuffctl(["export", "--format", "fhir", "--data", "heart-rate"])
        #expect(all.status == 0 && all.output == heartRate.output)
        #expect(try await stack.cuffctl(["export", "--format", "csv", "--data", "all"]).status == 64)
    }

    @Test("SIGTERM commits what a long HeartRateFlushInterval holds: every value cuffd took is stored, once")
    func stopCommitsTheWindow() async throws {
        // The strap's link stays up long after its last value, and the window is longer than the test: nothing but the
        // stop can commit the values.
        let stack = try await Stack.make(
            scenario: "strap.json", edits: [#"{"after": 16.0, "disconnect": true}"#: #"{"after": 900.0, "disconnect": true}"#],
            configuration: "[Store]\nHeartRateFlushInterval=900\n[Journal]\nDetail=packets\n")
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", Self.strap]).status == 0)
        let expected = try #require(Scenario.parse(Data(contentsOf: stack.scenario)).expect?.heartRates)
        // Each value cuffd decoded has its journal entry before the session takes it: all but the malformed one, the
        // 0/min value included (decoded, then not a sample).
        let decoded = { stack.journalEntries().filter { $0["MESSAGE"]?.contains("sent heartRateMeasurement") == true }.count }
        try await stack.journal.received.wait(for: "\(expected + 1) decoded values:\n\(stack.text("cuffd.log"))") { _ in
            decoded() >= expected + 1 ? () : nil
        }
        #expect(try await heartRates(stack).isEmpty, "the window holds every value until the stop")
        #expect(try await stack.stopDaemon() == 0)
        try await stack.startDaemon()
        let samples = try await heartRates(stack)
        #expect(samples.count == expected, "\(stack.text("cuffd.log"))")
        #expect(Set(samples.compactMap { $0["syncIdentifier"] as? String }).count == samples.count, "nothing stored twice")
        #expect(try await stack.stopDaemon() == 0)
    }

    @Test("SIGKILL mid-stream loses at most the values of one batch window and stores nothing twice")
    func crashMidStream() async throws {
        let stack = try await Stack.make(scenario: "strap.json")
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", Self.strap]).status == 0)
        // Mid-stream: a few batches stored, as cuffctl --follow prints them.
        let follow = try stack.startCuffctl(["heart-rate", "--follow", "--json", "--limit", "1000"], log: "follow.log")
        try await stack.logged.wait(for: "12 samples stored:\n\(stack.text("follow.log"))") { _ in
            stack.text("follow.log").split(separator: "\n").count >= 12 ? () : nil
        }
        follow.terminate()
        try await stack.killDaemon()
        try await stack.startDaemon()
        let again = try stack.startCuffctl(["heart-rate", "--follow", "--json", "--limit", "1000"], log: "follow-again.log")
        defer { again.terminate() }
        // The strap's link stays up: the new cuffd subscribes again and the rest of the minute arrives, until the strap
        // ends the link.
        try await stack.wait(for: "disconnect", in: "cuff-sim.log")
        // What cuff-sim delivered (not what it dropped while no cuffd listened), less the malformed and the 0/min value.
        let delivered = stack.text("cuff-sim.log").split(separator: "\n").filter { $0.contains("2A37") && $0.contains("notified: ") }
        let valid = delivered.filter { !$0.hasSuffix("notified: 10 48") && !$0.hasSuffix("notified: 04 00") }
        // Stored, as the follower prints it: all but one window (1 s) at the strap's four values a second, and the one
        // in flight when the process died.
        try await stack.logged.wait(for: "all but 5 of the \(valid.count) values stored:\n\(stack.text("follow-again.log"))") { _ in
            stack.text("follow-again.log").split(separator: "\n").count >= valid.count - 5 ? () : nil
        }
        let samples = try await heartRates(stack)
        #expect(Set(samples.compactMap { $0["syncIdentifier"] as? String }).count == samples.count, "nothing stored twice")
        let lost = valid.count - samples.count
        #expect(lost >= 0 && lost <= 5, "delivered \(valid.count), stored \(samples.count)")
        #expect(try await stack.stopDaemon() == 0)
    }
}
