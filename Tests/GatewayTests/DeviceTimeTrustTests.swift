import BlueZ
import FoundationEssentials
import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

/// A cuff time more than a day ahead of the gateway's clock, on each path that makes readings (docs/gateway.md,
/// "Time"): kept as the cuff reported it, not believed, by how far it lay ahead.
@Suite("Gateway in-process: a cuff time far ahead is not believed", .timeLimit(.minutes(1)))
struct DeviceTimeTrustTests {
    /// 2099-01-01T08:00:00 read as UTC.
    static let year2099 = (text: "2099-01-01T08:00:00", utc: Date(timeIntervalSince1970: 4_070_937_600))

    /// Expects `reading` to carry `time` as reported, not believed, ahead by as much as `time` (read as UTC) lies after
    /// its receipt, give or take `zone` (a wall clock read in the gateway's zone) and a millisecond (the lead's unit).
    static func expectDisbelieved(_ reading: Reading?, _ time: (text: String, utc: Date) = year2099, zone: Duration = .zero) throws {
        let reading = try #require(reading)
        #expect(reading.deviceTime?.isoString == time.text)
        #expect(!reading.isDeviceTimeBelieved)
        let lead = try #require(reading.deviceTimeLead)
        let expected = Duration.seconds(time.utc.timeIntervalSince(reading.receivedAt))
        #expect(lead > DeviceTimeTrust.maximumLead && abs((lead - expected) / .seconds(1)) <= (zone + .milliseconds(1)) / .seconds(1), "\(lead)")
    }

    @Test("0x2A35 stored records (clock-ahead.json): the 2099 one not believed, the newer reading without a time stamp is")
    func indicatedRecord() async throws {
        try await ScenarioRun.afterExpectedReadings("clock-ahead.json") { run in
            let readings = await run.rig.store.readings
            try Self.expectDisbelieved(readings.first { $0.systolic.doubleValue == 140 }, zone: .seconds(14 * 3600))
            let newer = try #require(readings.first { $0.systolic.doubleValue == 118 })
            #expect(newer.isDeviceTimeBelieved && newer.deviceTimeLead == nil)
        }
    }

    @Test("Omron records: a record dated 2063 (the last year its 6-bit field holds) not believed, one of yesterday believed")
    func omronRecords() async throws {
        let run = try await ScenarioRun.start("omron-wrapped.json", ["2026-11-02T07:00:00": "2063-01-01T08:00:00", "2026-11-03T07:00:00": "2026-09-20T07:00:00"])
        try await run.pairAll()
        try await run.waitForExpectedReadings()
        let readings = await run.rig.store.readings
        try Self.expectDisbelieved(readings.first { $0.systolic.doubleValue == 132 }, ("2063-01-01T08:00:00", Date(timeIntervalSince1970: 2_934_864_000)), zone: .seconds(14 * 3600))
        let yesterday = try #require(readings.first { $0.systolic.doubleValue == 130 })
        #expect(yesterday.deviceTime?.isoString == "2026-09-20T07:00:00" && yesterday.isDeviceTimeBelieved)
        await run.rig.stop()
    }

    @Test("RACP: a BPS 1.1 record dated 2099 (UTC, no offset) not believed, by exactly how far it lies ahead")
    func racpRecord() async throws {
        let last = "{\"sequence\": 12, \"hex\": \"66 79 00 4F 00 5D 00 64 96 96 32 40 00 74 A4 96 32\"}"
        // 140/90 mmHg, MAP 105, pulse 72, 3 124 252 800 s after 2000-01-01 (flag bit 6).
        let run = try await ScenarioRun.start("racp-records.json", [last: last + ",\n      {\"sequence\": 13, \"hex\": \"46 8C 00 5A 00 69 00 80 50 38 BA 48 00\"}"])
        try await run.pairAll()
        let record = await run.rig.store.readings.first { $0.sequenceNumber == 13 }
        try Self.expectDisbelieved(record)
        #expect(record?.clockOffset == nil)
        await run.rig.stop()
    }
}
