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
        let run = try await ScenarioRun.start("and-ua651ble.json")
        let written = { @Sendable (event: GatewayEvent) -> Bool in
            if case .clockSynchronized(Self.ua651, nil, true) = event { true } else { false }
        }
        try await run.pairAll()
        _ = try await run.rig.next(where: written)
        // START pressed, it ends the pairing link, wakes, and sends its reading once the woken link has set its clock.
        try await Self.wake(run, Self.ua651, onceSeen: written)

        let local = DateTime(EmbeddedGateway.now, in: LocalTimeZone())
        let dates = await run.central.writes(to: HealthCharacteristic.dateTime.uuid)
        #expect(dates.map { try? DateTime(decoding: $0) } == [local, local], "the pairing link and the woken one, each once")
        #expect(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).isEmpty)
        #expect(run.rig.events.all.filter(written).count == 2, "the clock cannot be read, so no offset is told")
        await run.rig.stop()
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

        // The clock the scenario starts it at (in-process a characteristic holds what the test puts there).
        let shows = CurrentTime(dateTime: DateTime(year: 2021, month: 3, day: 1, hours: 8, minutes: 0, seconds: 0), adjustReason: [])
        await run.central.set(HealthCharacteristic.currentTime.uuid, to: shows.encoded(), at: Self.ua1200)
        try await run.pairAll()
        #expect(await run.central.writes(to: AAndDService.command) == [AAndDService.disconnectRequest])
        await run.rig.settled()
        #expect(await run.gateway.status(Self.ua1200)?.connected == false, "the cuff ended the link")
        #expect(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).count == 1)
        // It wakes with a reading: sent once the woken link has set its clock (the pairing link's sync seen first).
        let clockSet = { @Sendable (event: GatewayEvent) -> Bool in
            if case .clockSynchronized(Self.ua1200, _, true) = event { true } else { false }
        }
        _ = try await run.rig.next(where: clockSet)
        // START pressed, it wakes and advertises; it sends its reading once the woken link has set its clock.
        try await Self.wake(run, Self.ua1200, onceSeen: clockSet)
        #expect(await run.central.writes(to: AAndDService.command).count == 1, "only after pairing, not on later links")
        #expect(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).count == 2)
        await run.rig.stop()
    }

    /// Plays the cuff's timeline a step at a time, each once the Gateway is ready for it: up to its waking (`advertise`),
    /// then, once the woken link is seen (`event`, its clock set), the rest; returns once the store holds what the
    /// scenario expects.
    static func wake(_ run: ScenarioRun, _ cuff: BluetoothAddress, onceSeen event: @escaping @Sendable (GatewayEvent) -> Bool) async throws {
        let timeline = run.scenario.cuffs[0].timeline.map(\.action)
        let woken = try #require(timeline.firstIndex(of: .advertise)) + 1
        for action in timeline.prefix(woken) { await run.central.perform(action, on: cuff) }
        _ = try await run.rig.next(where: event)
        for action in timeline.dropFirst(woken) { await run.central.perform(action, on: cuff) }
        try await run.waitForExpectedReadings()
    }
}
