import BlueZ
import Foundation
import GATTHealth
import Gateway
import GatewayTestSupport
import Testing

/// A&D's cuffs on the Gateway (docs/reference/GATT-HEALTH.md §13.8, docs/compatibility.md): the UA-651BLE's clock set through a
/// Date Time 0x2A08 written into 0x1810; the UA-1200BLE recognised in cooperation mode before pairing, its clock set
/// through Current Time, and A&D's disconnect request sent once it is paired.
@Suite("Gateway in-process: A&D cuffs", .timeLimit(.minutes(1)))
struct AAndDGatewayTests {
    static let ua651 = BluetoothAddress("5C:31:3E:65:1B:01")!
    static let ua1200 = BluetoothAddress("5C:31:3E:12:00:02")!

    @Test("UA-651BLE: the clock is written as a Date Time on every link, first thing, in local time; nothing else sets it")
    func dateTimeClock() async throws {
        try await ScenarioRun.afterExpectedReadings("and-ua651ble.json") { run in
            let written = await run.central.writes(to: HealthCharacteristic.dateTime.uuid)
            // The pairing link and the link after the cuff woke: each set the clock once.
            #expect(written.count == 2)
            #expect(try written.allSatisfy { try DateTime(decoding: $0) == DateTime(EmbeddedGateway.now, in: LocalTimeZone()) })
            #expect(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).isEmpty)
            let synchronized = run.rig.events.all.filter { if case .clockSynchronized(Self.ua651, nil, true) = $0 { true } else { false } }
            #expect(synchronized.count == 2, "the clock cannot be read, so no offset is told")
        }
    }

    @Test("UA-651BLE with ClockSync=no: the Date Time is left alone")
    func noClockSync() async throws {
        var configuration = GatewayConfiguration()
        configuration.clockSync = false
        try await ScenarioRun.afterExpectedReadings("and-ua651ble.json", configuration: configuration) { run in
            #expect(await run.central.writes(to: HealthCharacteristic.dateTime.uuid).isEmpty)
        }
    }

    @Test("UA-1200BLE: scan names the model and its cooperation mode; once paired the disconnect request ends the link")
    func ua1200() async throws {
        let run = try await ScenarioRun.start("and-ua1200ble.json")
        let scanning = Task { try await run.gateway.scan(for: .seconds(2)) }
        await run.rig.clock.sleepers(count: 1)
        run.rig.clock.advance(by: .seconds(2))
        let seen = try #require(try await scanning.value.first { $0.device.id.address == Self.ua1200 })
        #expect(seen.model.title == "A&D UA-1200BLE")
        #expect(seen.states == ["in cooperation mode: it holds no reading it has not sent"])
        #expect(seen.model.verdict.sentence.hasPrefix("supported, with quirk: its clock is set through Current Time"))

        try await run.pairAll()
        #expect(await run.central.writes(to: AAndDService.command) == [AAndDService.disconnectRequest])
        #expect(await run.gateway.status(Self.ua1200)?.connected == false, "the cuff ended the link")
        #expect(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).count == 1)
        await run.playTimelines()
        try await run.waitForExpectedReadings()
        #expect(await run.central.writes(to: AAndDService.command).count == 1, "only after pairing, not on later links")
        #expect(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).count == 2)
        await run.rig.stop()
    }
}
