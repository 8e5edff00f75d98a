import DBusTestSupport
import Foundation
import Testing

/// A cuff time far ahead of the gateway's clock (scenarios/clock-ahead.json: a stored record dated 2099, then a newer
/// reading) through cuffd, cuffctl and cuff-forward to Home Assistant's MQTT state (docs/gateway.md, "Time").
@Suite(
    "A cuff time far ahead is not believed", .serialized,
    .enabled(if: MosquittoBroker.available, "needs Debian's mosquitto and mosquitto-clients (scripts/install-deps)"))
struct ClockAheadTests {
    static let cuff = "E8:2A:44:10:3C:A1"

    @Test("The 2099 record keeps its device time but is filed under its receipt: stats' latest and the retained MQTT state are the newer reading; the journal names the cuff and the offset")
    func newerReadingIsTheLatest() async throws {
        try await withTeardown { teardown in
            let forwarding = try await MQTTForwardingStack<MosquittoBroker>.make(scenario: "clock-ahead.json")
            teardown.add { forwarding.broker.remove() }
            let stack = forwarding.stack
            try await stack.startDaemon()
            let paired = Date()
            #expect(try await stack.cuffctl(["pair", Self.cuff]).status == 0)
            // The newer reading, measured after the 2099 record was received (re-sent on the wake-up link: already stored).
            let measured = try await stack.measure(Self.cuff, ["--timeout", "30", "--json"])
            #expect(measured.status == 0, "\(measured.error)")

            func time(_ reading: [String: Any]) -> Date { (reading["time"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) } ?? .distantFuture }
            let readings = try await stack.readings()
            let ahead = try #require(readings.first { $0["systolic"] as? Double == 140 }, "\(readings)")
            let newer = try #require(readings.first { $0["systolic"] as? Double == 118 }, "\(readings)")
            #expect(ahead["deviceTime"] as? String == "2099-01-01T08:00:00", "kept as the cuff reported it")
            #expect(time(ahead) >= paired.addingTimeInterval(-1) && time(ahead) <= Date(), "filed under its receipt: \(ahead)")
            #expect(time(ahead) < time(newer))

            let stats = try await stack.cuffctl(["stats", "--json"])
            let table = try #require(try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]], "\(stats.error)")
            #expect(table["systolic"]?["mostRecent"] as? Double == 118, "\(stats.output)")
            #expect(table["diastolic"]?["mostRecent"] as? Double == 76, "\(stats.output)")

            try forwarding.startForwarder()
            try await forwarding.waitForEveryReading()
            let retained = try await offCooperativePool { try forwarding.retained(["cuffd/#"]) }.filter { $0.topic.hasSuffix("/state") }
            #expect(retained.map { $0.json["sync_identifier"] as? String } == [newer["syncIdentifier"] as? String], "\(retained.map(\.payload))")
            #expect(forwarding.readingMessages().contains { $0.topic.hasSuffix("/history") && $0.json["sync_identifier"] as? String == ahead["syncIdentifier"] as? String })

            // The journal follows the Gateway's events in order: once the newer reading's entry is there, so is the warning.
            try await forwarding.wait("the newer reading's journal entry") { _ in stack.journalEntries().contains { $0["BP_SYSTOLIC"] == "118" } }
            let warnings = stack.journalEntries().filter { $0["BP_DEVICE_TIME_AHEAD"] != nil }
            #expect(warnings.count == 1, "one warning, though the record came on two links: \(warnings)")
            let warning = try #require(warnings.first)
            #expect(warning["BP_DEVICE"] == Self.cuff && warning["BP_DEVICE_TIME"] == "2099-01-01T08:00:00")
            let seconds = try #require(warning["BP_DEVICE_TIME_AHEAD"].flatMap { Double($0) })
            #expect(abs(Date().addingTimeInterval(seconds).timeIntervalSince1970 - 4_070_937_600) < 14 * 3600 + 60, "2099-01-01T08:00 in the gateway's zone: \(seconds)")
            #expect(warning["MESSAGE"]?.contains("Cuff \(Self.cuff): its time stamp 2099-01-01T08:00:00 lies") == true, "\(warning)")
        }
    }
}
