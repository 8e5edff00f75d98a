import CuffSimulation
import DBusTestSupport
import Foundation
import Testing

/// A heart-rate strap's samples into the central `heart_rates` table (docs/forwarding.md, "Heart rate"): each once,
/// with its contact and RR intervals, whatever is sent again; the readings' anchor untouched by them.
extension ForwardingTests {
    static let strap = "E8:3C:A1:07:6D:21"

    @Test("A strap's samples arrive in heart_rates once, with contact and RR intervals; sent again from anchor 0, still once; another gateway's role sees none of them")
    func heartRates() async throws {
        try await withTeardown { teardown in
            let forwarding = try await ForwardingStack.make(scenario: "strap.json")
            teardown.add { forwarding.server.remove() }
            let stack = forwarding.stack
            try await Self.started(forwarding, backlog: 0)
            #expect(try await forwarding.runForwarder(["--config", forwarding.configurationPath, "--migrate"]).status == 0)
            try forwarding.startForwarder()
            #expect(try await stack.cuffctl(["pair", Self.strap]).status == 0)
            let expected = try #require(Scenario.parse(Data(contentsOf: stack.scenario)).expect?.heartRates)
            try await forwarding.waitUntilCentralHeartRatesMatchGateway(count: expected)
            #expect(try await forwarding.query("SELECT count(*) FROM heart_rates WHERE sensor_contact = 'notDetected'") == ["4"])
            #expect(try await forwarding.query("SELECT DISTINCT device_model || '|' || device_firmware || '|' || gateway FROM heart_rates") == ["SIM-HR|1.0|ward3"])
            #expect(try await forwarding.query("SELECT count(*) FROM readings") == ["0"], "a strap makes no reading")
            let heartRateAnchor = forwarding.directory.appendingPathComponent("state/heart-rate-anchor").path
            #expect(FileManager.default.fileExists(atPath: heartRateAnchor))

            // Every sample sent again, as after a crash before the anchor's write: nothing changes.
            try await forwarding.killForwarder()
            try FileManager.default.removeItem(atPath: heartRateAnchor)
            try forwarding.startForwarder(log: "forward-again.log")
            try await stack.wait(for: "forwarded \(expected) heart-rate samples", in: "forward-again.log")
            try await forwarding.waitUntilCentralHeartRatesMatchGateway(count: expected)
            #expect(try await forwarding.query("SELECT count(*), count(DISTINCT sync_identifier) FROM heart_rates") == ["\(expected)|\(expected)"])

            // Row security: a second gateway's role sees and updates none of the first's samples.
            try await forwarding.register(role: "gateway2", gatewayName: "ward4")
            let second = (name: "gateway2", password: ForwardingStack.gatewayPassword)
            #expect(try await forwarding.query("SELECT count(*) FROM heart_rates", as: second) == ["0"])
            #expect(try await forwarding.query("WITH changed AS (UPDATE heart_rates SET bpm = 0 RETURNING 1) SELECT count(*) FROM changed", as: second) == ["0"])
            await #expect {
                _ = try await forwarding.query(
                    "INSERT INTO heart_rates (sync_identifier, sync_version, gateway, measured_at, bpm, sensor_contact) VALUES ('forged', 1, 'ward3', now(), 1, 'detected')",
                    as: second)
            } throws: { "\($0)".contains("row-level security") }
            #expect(try await forwarding.query("SELECT count(*) FROM heart_rates WHERE bpm <= 1") == ["0"])
        }
    }
}

extension ForwardingStack {
    /// The central heart-rate samples of this gateway that are not deleted, as `syncIdentifier|bpm|contact|rr`, sorted.
    func centralHeartRates() async throws -> [String] {
        try await query(
            "BEGIN; LOCK TABLE heart_rates IN SHARE MODE; SELECT sync_identifier || '|' || bpm || '|' || sensor_contact || '|' || "
                + "coalesce(array_to_string(rr_intervals, ','), '-') FROM heart_rates WHERE deleted_at IS NULL AND gateway = '\(gatewayName)'; COMMIT"
        ).sorted()
    }

    /// The gateway's heart-rate samples, as root reads them through cuffd, in the same form.
    func gatewayHeartRates() async throws -> [String] {
        let outcome = try await stack.cuffctl(["heart-rate", "--json", "--limit", "1000"])
        let samples = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]] ?? []
        return samples.map { sample in
            // No intervals: NULL centrally, an empty list (or none) in cuffctl's JSON.
            let rr = (sample["rrIntervals"] as? [Int]).flatMap { $0.isEmpty ? nil : $0.map(String.init).joined(separator: ",") } ?? "-"
            let bpm = (sample["heartRate"] as? Double).map { String(Int($0)) } ?? "?"
            return "\(sample["syncIdentifier"] as? String ?? "?")|\(bpm)|\(sample["sensorContact"] as? String ?? "?")|\(rr)"
        }.sorted()
    }

    /// Waits until the central table holds exactly the gateway's `count` heart-rate samples, checked at each write of
    /// the server's write-ahead log.
    func waitUntilCentralHeartRatesMatchGateway(count: Int) async throws {
        var expected: [String] = []
        var central: [String] = []
        try await FolderWatch.wait(
            "the central heart-rate samples of \(gatewayName) as the gateway's", in: [server.walFolder], within: testDeadline,
            detail: "central \(central.count), gateway \(expected.count) of \(count); only central: \(Set(central).subtracting(expected).sorted()), "
                + "only the gateway's: \(Set(expected).subtracting(central).sorted())\n\(stack.text("forward.log"))"
        ) {
            if expected.count < count { expected = try await gatewayHeartRates() }
            central = try await centralHeartRates()
            return expected.count == count && central == expected
        }
    }
}
