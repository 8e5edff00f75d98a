import CuffSimulation
import DBusTestSupport
import Foundation
import Testing

/// cuff-forward's HTTP sink against real servers the test starts on 127.0.0.1 (docs/forwarding.md, "The HTTP sink"): a
/// webhook receiver in Python that checks every signature with its own HMAC, and InfluxDB 1.x read back with InfluxQL.
@Suite("cuff-forward → HTTP (webhook, InfluxDB)", .serialized)
struct HTTPForwardingTests {
    static let cuff = "E8:2A:44:10:3C:5D"

    /// The stack with a receiver answering `answers`, forward.conf for it (plus `more`), the cuff paired — its records
    /// stored, so that cuff-forward starts on a backlog — and cuff-forward started.
    static func webhook(answers: String, more: String = "") async throws -> HTTPForwardingStack {
        let forwarding = try await HTTPForwardingStack.make()
        let url = try await forwarding.startReceiver(answers: answers)
        try forwarding.writeConfiguration(url: url, format: "jsonl", more: "HMACKeyFile=\(forwarding.keyPath)\n" + more)
        #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
        try forwarding.startForwarder()
        return forwarding
    }

    /// Each reading's sync identifier, systolic, diastolic and pulse as cuffctl shows them.
    static func gatewayReadings(_ stack: Stack) async throws -> [String] {
        try await stack.readings().map { reading in
            "\(reading["syncIdentifier"]!)|\(reading["systolic"]!)|\(reading["diastolic"]!)|\(reading["pulseRate"] ?? "-")"
        }.sorted()
    }

    @Test("JSON lines: every reading once, every POST signed with the key, the values cuffctl shows; the status shows the HTTP sink's anchor and no lag")
    func jsonLines() async throws {
        let forwarding = try await Self.webhook(answers: "200")
        try await forwarding.waitForEveryReadingReceived()
        let lines = forwarding.received()
        #expect(!forwarding.requests().isEmpty && forwarding.requests().allSatisfy { $0.contains(": 200 signature=good") }, "\(forwarding.requests())")
        let received = lines.map { line -> String in
            let data = line["data"] as? [String: Any] ?? [:]
            return "\(line["sync_identifier"]!)|\(data["systolic"]!)|\(data["diastolic"]!)|\(data["pulse"] ?? "-")"
        }.sorted()
        #expect(received == (try await Self.gatewayReadings(forwarding.stack)))
        #expect(lines.allSatisfy { $0["type"] as? String == "reading" && $0["gateway"] as? String == "ward3" && $0["sync_version"] is Int })
        #expect(lines.allSatisfy { ($0["device"] as? [String: Any])?["address"] as? String == Self.cuff }, "\(lines.first ?? [:])")

        // A deletion arrives as a line of its own.
        let deleted = try #require(lines.first?["sync_identifier"] as? String)
        #expect(try await forwarding.stack.cuffctl(["delete", deleted]).status == 0)
        try await forwarding.stack.logged.wait(for: "the deletion of \(deleted):\n\(forwarding.stack.text("receiver.log"))") { _ in
            forwarding.received().contains { $0["type"] as? String == "deletion" && $0["sync_identifier"] as? String == deleted } ? () : nil
        }

        let status = try await forwarding.stack.waitForForwardStatus(forwarding.statusPath, "forwarding, no lag") { $0["state"] as? String == "forwarding" }
        #expect(status["lagReadings"] as? Int == 0 && status["lagHeartRates"] as? Int == 0 && status["heartRateAnchor"] is Int, "\(status)")
        #expect("\(status["anchor"]!)" == (try String(contentsOfFile: forwarding.anchorPath, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("500, then 500, then 200: the failure logged once, retried with backoff from the same anchor, every reading arrives")
    func serverErrorsThenSuccess() async throws {
        let forwarding = try await Self.webhook(answers: "500 500 200")
        try await forwarding.waitForEveryReadingReceived()
        // Logged once the 200 has come back: the outage is over, and was logged once.
        try await forwarding.stack.wait(for: "the HTTP receiver accepts pages again", in: "forward.log")
        // The receiver's log reaches its file through a pipe of its own, which may lag cuff-forward's: its third
        // request is waited for, not read at once (seen missing once, the 200 already logged by cuff-forward).
        try await forwarding.stack.wait(for: "request 3: ", in: "receiver.log")
        #expect(forwarding.requests().prefix(3).map { $0.split(separator: " ")[2] } == ["500", "500", "200"], "\(forwarding.requests())")
        #expect(forwarding.stack.text("forward.log").components(separatedBy: "the HTTP receiver is unreachable: HTTP 500").count == 2)
    }

    @Test("400: the sink stops with its anchor kept, the receiver's first line logged once, the status says so; started again with a receiver that accepts, every reading arrives")
    func refused() async throws {
        let forwarding = try await Self.webhook(answers: "400")
        try await forwarding.stack.wait(for: "refused a page", in: "forward.log")
        let log = forwarding.stack.text("forward.log")
        #expect(log.contains("with HTTP 400: line 1: refused by the test; this sink stops") && !log.contains("second line"), "\(log)")
        let status = try await forwarding.stack.waitForForwardStatus(forwarding.statusPath, "stopped") { ($0["state"] as? String)?.hasPrefix("stopped") == true }
        #expect((status["lastError"] as? String)?.contains("HTTP 400") == true)
        #expect(status["lagReadings"] as? Int == (try await forwarding.stack.readings().count))
        #expect(!FileManager.default.fileExists(atPath: forwarding.anchorPath), "nothing was acknowledged")
        #expect(forwarding.requests().count == 1)
        #expect(forwarding.received().isEmpty)

        try forwarding.setAnswers("200")
        try await forwarding.stopForwarder()
        try forwarding.startForwarder(log: "forward-again.log")
        try await forwarding.waitForEveryReadingReceived()
    }

    @Test("A receiver slower than Timeout=: the POST given up, logged, retried; every reading arrives (at least once)")
    func slowReceiver() async throws {
        let forwarding = try await Self.webhook(answers: "slow 200", more: "Timeout=1\n")
        // The receiver answers the first POST only once cuff-forward has given up on it; it keeps that body too.
        try await forwarding.stack.wait(for: "no answer within Timeout=1 s", in: "forward.log")
        try await forwarding.waitForEveryReadingReceived()
        let identifiers = forwarding.received().compactMap { $0["sync_identifier"] as? String }
        #expect(Set(identifiers).count == (try await forwarding.stack.readings().count))
    }

    @Test("A key the receiver does not share: 401 retried, the status waiting; the key file corrected, every reading arrives. A key file that cannot be read: exit 78 naming the line")
    func wrongKey() async throws {
        let forwarding = try await HTTPForwardingStack.make()
        let url = try await forwarding.startReceiver(answers: "200")
        try "not-the-receivers-key\n".write(toFile: forwarding.keyPath, atomically: true, encoding: .utf8)
        try forwarding.writeConfiguration(url: url, format: "jsonl", more: "HMACKeyFile=\(forwarding.keyPath)\n")
        #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
        try forwarding.startForwarder()
        try await forwarding.stack.wait(for: "HTTP 401: signature mismatch", in: "forward.log")
        let status = try await forwarding.stack.waitForForwardStatus(forwarding.statusPath, "waiting") { $0["state"] as? String == "waiting for the HTTP receiver" }
        #expect((status["lastError"] as? String)?.contains("401") == true)
        try (HTTPForwardingStack.key + "\n").write(toFile: forwarding.keyPath, atomically: true, encoding: .utf8)
        try await forwarding.waitForEveryReadingReceived()
        try await forwarding.stopForwarder()

        try forwarding.writeConfiguration(url: url, format: "jsonl", more: "HMACKeyFile=\(forwarding.path("missing.key"))\n")
        let outcome = try await ExternalCommand.runDetached(
            ForwardingStack.binary, ["--config", forwarding.configurationPath, "--bus", forwarding.stack.bus.address])
        #expect(outcome.status == 78)
        #expect(outcome.standardError.contains("forward.conf:8: HMACKeyFile=\(forwarding.path("missing.key")) cannot be read"), "\(outcome.standardError)")
    }

    @Test("HTTPS: a receiver whose certificate another CA signed, or asked for by a name not in its certificate, is refused, logged and retried; with the right CA and name every reading arrives")
    func tls() async throws {
        let forwarding = try await HTTPForwardingStack.make()
        let certificates = try TestCertificates(in: forwarding.directory)
        let other = try TestCertificates(in: forwarding.directory, name: "other")
        let url = try await forwarding.startReceiver(answers: "200", tls: certificates)
        #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
        let key = "HMACKeyFile=\(forwarding.keyPath)\n"

        try forwarding.writeConfiguration(url: url, format: "jsonl", more: key + "CAFile=\(other.authority)\n")
        try forwarding.startForwarder()
        try await forwarding.stack.wait(for: "the HTTP receiver is unreachable: SSL certificate problem", in: "forward.log")
        try await forwarding.stopForwarder()

        let byAddress = url.replacingOccurrences(of: "localhost", with: "127.0.0.1")
        try forwarding.writeConfiguration(url: byAddress, format: "jsonl", more: key + "CAFile=\(certificates.authority)\n")
        try forwarding.startForwarder(log: "forward-address.log")
        try await forwarding.stack.wait(for: "certificate subject name", in: "forward-address.log")
        try await forwarding.stopForwarder()
        #expect(forwarding.requests().isEmpty && !FileManager.default.fileExists(atPath: forwarding.anchorPath))

        try forwarding.writeConfiguration(url: url, format: "jsonl", more: key + "CAFile=\(certificates.authority)\n")
        try forwarding.startForwarder(log: "forward-verified.log")
        try await forwarding.waitForEveryReadingReceived()
        #expect(forwarding.requests().allSatisfy { $0.contains(": 200 signature=good") })
    }

    @Test(
        "InfluxDB: every reading a point of blood_pressure with the values and time cuffctl shows; a strap's samples points of heart_rate",
        .enabled(if: InfluxServer.available, "needs Debian's influxdb and curl (scripts/install-deps)"))
    func influx() async throws {
        let forwarding = try await HTTPForwardingStack.make(scenario: "strap.json")
        try await forwarding.startInflux()
        try forwarding.writeConfiguration(url: forwarding.influxWriteURL, format: "influx")
        try forwarding.startForwarder()
        #expect(try await forwarding.stack.cuffctl(["pair", ForwardingTests.strap]).status == 0)
        let samples = try #require(Scenario.parse(Data(contentsOf: forwarding.stack.scenario)).expect?.heartRates)
        try await forwarding.waitForInflux("heart_rate", count: samples)
        #expect(try forwarding.influxQuery("SELECT count(bpm) FROM heart_rate WHERE gateway = 'ward3'").first?[1] as? Int == samples)
        #expect(try forwarding.influxQuery("SELECT count(bpm) FROM heart_rate WHERE contact = 'notDetected'").first?[1] as? Int == 4)
    }

    @Test(
        "InfluxDB: a cuff's readings read back exactly — values, tags, nanosecond times; sent again from anchor 0, the same points",
        .enabled(if: InfluxServer.available, "needs Debian's influxdb and curl (scripts/install-deps)"))
    func influxReadings() async throws {
        let forwarding = try await HTTPForwardingStack.make()
        try await forwarding.startInflux()
        try forwarding.writeConfiguration(url: forwarding.influxWriteURL, format: "influx")
        #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
        try forwarding.startForwarder()
        let readings = try await forwarding.stack.readings()
        try await forwarding.waitForInflux("blood_pressure", count: readings.count)
        func points() throws -> [String] {
            try forwarding.influxQuery("SELECT sync_identifier, systolic, diastolic, pulse, device, gateway FROM blood_pressure").map { row in
                "\(row[1])|\(row[2])|\(row[3])|\(row[4])|\(row[5])|\(row[6])|\(row[0])"
            }.sorted()
        }
        let expected = readings.map { reading in
            let time = ISO8601DateFormatter().date(from: reading["time"] as! String)!
            let stamp = ISO8601DateFormatter().string(from: time)
            return "\(reading["syncIdentifier"]!)|\(reading["systolic"]!)|\(reading["diastolic"]!)|\(reading["pulseRate"] ?? "-")|\(Self.cuff)|ward3|\(stamp)"
        }.sorted()
        #expect(try points() == expected)

        // Everything sent again, as after a crash before the anchor's write: InfluxDB overwrites, nothing doubles. The
        // points are in InfluxDB a moment before the anchor is written, and the page's log line after it: waited for.
        try await forwarding.stack.wait(for: "forwarded \(readings.count) readings", in: "forward.log")
        try await forwarding.stopForwarder()
        try FileManager.default.removeItem(atPath: forwarding.anchorPath)
        try forwarding.startForwarder(log: "forward-again.log")
        try await forwarding.stack.wait(for: "forwarded \(readings.count) readings", in: "forward-again.log")
        #expect(try forwarding.influxQuery("SELECT count(systolic) FROM blood_pressure").first?[1] as? Int == readings.count)
        #expect(try points() == expected)

        // A revision overwrites its point, every field it can change included; a deletion is a point of its own.
        let identifiers = readings.compactMap { $0["syncIdentifier"] as? String }
        let (revised, deleted) = (identifiers[0], identifiers[1])
        func excluded() throws -> [String] {
            try forwarding.influxQuery("SELECT excluded FROM blood_pressure WHERE sync_identifier = '\(revised)'").map { "\($0[1])" }
        }
        #expect(try await forwarding.stack.cuffctl(["annotate", revised, "--exclude", "a guest"]).status == 0)
        try await forwarding.waitForInflux("SELECT excluded FROM blood_pressure WHERE sync_identifier = '\(revised)'") { $0.map { "\($0[1])" } == ["a guest"] }
        #expect(try await forwarding.stack.cuffctl(["annotate", revised, "--include"]).status == 0)
        try await forwarding.waitForInflux("SELECT excluded, sync_version FROM blood_pressure WHERE sync_identifier = '\(revised)'") {
            $0.map { "\($0[1])|\($0[2])" } == ["|2"]
        }
        #expect(try excluded() == [""])
        #expect(try await forwarding.stack.cuffctl(["delete", deleted]).status == 0)
        try await forwarding.waitForInflux("SELECT sync_version FROM deletion WHERE sync_identifier = '\(deleted)' AND feed = 'blood_pressure'") { $0.count == 1 }
        #expect(try forwarding.influxQuery("SELECT count(systolic) FROM blood_pressure").first?[1] as? Int == readings.count, "the point stays")
        let deletions = try forwarding.influxQuery("SELECT sync_identifier, sync_version FROM deletion").map { "\($0[1])|\($0[2])" }
        // cuffd's feed names among its deletions each reading's pulse sample too (`…#pulse`), which no point has.
        #expect(deletions.filter { !$0.contains("#pulse|") } == ["\(deleted)|0"], "the revisions' own deletions left out: \(deletions)")
    }

    @Test(
        "InfluxDB stopped once the first page of a backlog is in, a cuff's readings stored meanwhile, started again: the outage logged, retried, and every reading a point once",
        .enabled(if: InfluxServer.available, "needs Debian's influxdb and curl (scripts/install-deps)"))
    func influxRestartedMidBacklog() async throws {
        let forwarding = try await HTTPForwardingStack.make(backlog: 20_000)
        try await forwarding.startInflux()
        try forwarding.writeConfiguration(url: forwarding.influxWriteURL, format: "influx")
        try forwarding.startForwarder()
        // Stopped after the first of two pages of 10 000: mostly while the second is in flight. The cuff's readings,
        // stored after the stop, make sure something waits for InfluxDB whatever the second page's timing.
        try await forwarding.stack.wait(for: "forwarded ", in: "forward.log")
        forwarding.stopInflux()
        #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
        try await forwarding.stack.wait(for: "InfluxDB is unreachable", in: "forward.log")
        try await forwarding.startInflux()
        let count = try await forwarding.stack.readings().count
        #expect(count > 20_000)
        try await forwarding.waitForInflux("blood_pressure", count: count)
        #expect(try forwarding.influxQuery("SELECT count(systolic) FROM blood_pressure").first?[1] as? Int == count)
    }
}
