import BlueZ
import GATTHealth
import Gateway
import GatewayTestSupport
import Testing

/// A Beurer BM48 switches itself off when asked for its history (docs/reference/GATT-HEALTH.md §13.9): cuffd never
/// writes its RACP, even though it offers BPS 1.1 records, and stores what it indicates, decoded as the standard says.
@Suite("Gateway in-process: Beurer BM48", .timeLimit(.minutes(1)))
struct BeurerBM48GatewayTests {
    static let racp = HealthCharacteristic.recordAccessControlPoint.uuid

    @Test("Its records are never asked for; its indicated reading is stored with the standard's byte order")
    func neverAskedForRecords() async throws {
        try await ScenarioRun.afterExpectedReadings("beurer-bm48.json") { run in
            #expect(await run.central.writes(to: Self.racp).isEmpty)
        }
    }

    @Test("The same cuff under a name that is no BM48's is asked for its records when it pairs")
    func anotherNameIsAsked() async throws {
        let run = try await ScenarioRun.start("beurer-bm48.json", [#""name": "BM48""#: #""name": "BP-S11""#])
        try await run.pairAll()
        #expect(await run.central.writes(to: Self.racp).count == 1)
        await run.rig.stop()
    }
}
