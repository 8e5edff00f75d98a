import BlueZ
import CuffSimulation
import FoundationEssentials
import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

/// The Gateway in-process (docs/gateway.md, "Seams"): the shipped scenarios' cuffs on an in-memory central, their
/// timelines played step by step, time advanced by the test.
@Suite("Gateway in-process: sessions, pairing, time, identity", .timeLimit(.minutes(1)))
struct GatewaySessionTests {
    static let oneCuff = BluetoothAddress("C4:F3:12:53:F2:C9")!
    static let passkeyCuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
    static let stranger = BluetoothAddress("00:11:22:33:44:55")!

    @Test("start shows the cuff pressure as it rises, then the new reading; re-sent records do not end it")
    func measurementWithProgress() async throws {
        let run = try await ScenarioRun.start("one-cuff.json")
        try await run.pairAll()
        let updates = try await run.gateway.startMeasurement(Self.oneCuff, timeout: .seconds(20))
        await run.playTimelines()
        let seen = await MeasurementSeen(updates)
        #expect(seen.otherEnd == nil)
        #expect(seen.pressures == [40, 120, 180])
        #expect(seen.reading?.systolic.doubleValue == 122)
        #expect(seen.reading?.userID == 1)
        // The stored record, indicated on the pairing link and again on the wake-up link, stored once.
        #expect(await run.rig.store.readings.count == 2)
        try await run.waitForExpectedReadings()
        await run.rig.stop()
    }

    @Test("A start with nothing arriving ends with timedOut when its time is up, not before; stop ends a session at once")
    func timeoutAndStop() async throws {
        let run = try await ScenarioRun.start("passkey.json")
        try await run.pairAll()
        let clock = run.rig.clock
        let updates = try await run.gateway.startMeasurement(Self.passkeyCuff, timeout: .seconds(20))
        await clock.sleepers(count: 1)
        clock.advance(by: .seconds(20) - .milliseconds(1))
        #expect(clock.sleeperCount == 1, "the session is still armed a moment before its time")
        clock.advance(by: .milliseconds(1))
        var last: MeasurementUpdate?
        for await update in updates { last = update }
        guard case .timedOut? = last else { Issue.record("ended with \(String(describing: last))"); return }

        let stream = try await run.gateway.startMeasurement(nil, timeout: .seconds(30))
        try await run.gateway.stopMeasurement(Self.passkeyCuff)
        var ending: MeasurementUpdate?
        for await update in stream { ending = update }
        guard case .stopped? = ending else { Issue.record("ended with \(String(describing: ending))"); return }
        await #expect(throws: GatewayError.self) { try await run.gateway.startMeasurement(Self.stranger, timeout: .seconds(1)) }
        await run.rig.stop()
    }

    @Test("Energy Expended is reset through the Heart Rate Control Point; a cuff without one says so, an unknown address too")
    func resetEnergyExpended() async throws {
        let strap = try await ScenarioRun.start("strap.json")
        try await strap.pairAll()
        try await strap.gateway.resetEnergyExpended(BluetoothAddress("E8:3C:A1:07:6D:21")!)
        #expect(await strap.central.writes(to: HealthCharacteristic.heartRateControlPoint.uuid) == [[0x01]])
        await strap.rig.stop()

        let cuff = try await ScenarioRun.start("passkey.json")
        try await cuff.pairAll()
        await #expect {
            try await cuff.gateway.resetEnergyExpended(Self.passkeyCuff)
        } throws: { error in
            if case .unsupported = error as? GatewayError { true } else { false }
        }
        await #expect {
            try await cuff.gateway.resetEnergyExpended(Self.stranger)
        } throws: { error in
            if case .unknownCuff = error as? GatewayError { true } else { false }
        }
        await cuff.rig.stop()
    }

    @Test("A passkey asked for through the control API while bluetoothd waits; the agent speaks KeyboardDisplay only meanwhile")
    func passkeyRelayed() async throws {
        let run = try await ScenarioRun.start("passkey.json")
        let rig = run.rig
        let answering = Task {
            try await rig.next { if case .passkeyRequested(Self.passkeyCuff) = $0 { true } else { false } }
            try await rig.gateway.providePasskey(123_456, for: Self.passkeyCuff)
        }
        let status = try await run.gateway.pair(Self.passkeyCuff, passkey: nil, timeout: .seconds(10))
        try await answering.value
        #expect(status.paired && status.trusted)
        #expect(await run.central.agentCapabilities == [.noInputNoOutput, .keyboardDisplay, .noInputNoOutput])
        await run.rig.stop()
    }

    @Test("A wrong passkey fails with bluetoothd's refusal, and nothing of the cuff stays")
    func wrongPasskey() async throws {
        let run = try await ScenarioRun.start("passkey.json")
        let failure = await #expect(throws: GatewayError.self) { try await run.gateway.pair(Self.passkeyCuff, passkey: 111_111, timeout: .seconds(10)) }
        guard case .bluez(let error)? = failure else { Issue.record("\(String(describing: failure))"); return }
        #expect(error.kind == .authenticationFailed)
        #expect(await run.gateway.status(Self.passkeyCuff) == nil)
        #expect(await run.central.holds(Self.passkeyCuff) == (false, false))
        await run.rig.stop()
    }

    @Test("A passkey nobody types: the agent gives up when the passkey timeout has passed, and nothing of the cuff stays")
    func passkeyTimeout() async throws {
        var configuration = GatewayConfiguration()
        configuration.passkeyTimeout = .seconds(60)
        let run = try await ScenarioRun.start("passkey.json", configuration: configuration)
        let pairing = Task { try await run.gateway.pair(Self.passkeyCuff, passkey: nil, timeout: .seconds(90)) }
        try await run.rig.next { if case .passkeyRequested(Self.passkeyCuff) = $0 { true } else { false } }
        await run.rig.clock.sleepers(count: 1)
        run.rig.clock.advance(by: .seconds(60))
        let failure = await #expect(throws: GatewayError.self) { try await pairing.value }
        guard case .bluez(let error)? = failure else { Issue.record("\(String(describing: failure))"); return }
        #expect(error.kind == .authenticationCanceled)
        #expect(await run.gateway.status(Self.passkeyCuff) == nil)
        await run.rig.stop()
    }

    @Test("Values that arrive before Device Information is read are held, so every reading names the cuff by its serial")
    func identityBeforeReadings() async throws {
        // Bonded before cuffd knew it: its history comes with the notify sessions, before ServicesResolved starts
        // the provisioning that reads Device Information.
        let run = try await ScenarioRun.start("stored-records.json", ["\"pairing\": \"justWorks\",": "\"pairing\": \"justWorks\", \"bonded\": true,"])
        let cuff = BluetoothAddress("E8:2A:44:10:3C:5D")!
        try await run.rig.next { if case .cuffChanged(let status) = $0 { status.address == cuff } else { false } }
        await run.central.linkUp(cuff)
        try await run.rig.next { if case .cuffChanged(let status) = $0 { status.identity != nil } else { false } }
        #expect(Set(await run.rig.store.readings.map(\.device.stableKey)) == ["serial:cuffd project/SIM-HISTORY/0003"])
        #expect(await run.rig.store.readings.count == 3)
        let status = try #require(await run.gateway.status(cuff))
        #expect(status.identity?.model == "SIM-HISTORY")
        // Its Battery Level (0x2A19, cuff-sim's 100 %), read at the connection once it is identified: on the status
        // the identity came with, or on a later one.
        let battery: (GatewayEvent) -> Bool = { if case .cuffChanged(let status) = $0 { status.batteryLevel == 100 } else { false } }
        if !run.rig.events.all.contains(where: battery) { _ = try await run.rig.next(where: battery) }
        #expect(await run.gateway.status(cuff)?.batteryLow == false)
        await run.rig.stop()
    }

    @Test("Two users on one cuff map to the people the configuration names; 255 stays nobody")
    func twoUsers() async throws {
        let run = try await ScenarioRun.start(
            "two-users.json", configuration: ScenarioRun.configuration(people: [0: "alice", 1: "bob"], on: "A4:C1:38:5E:77:02"))
        try await run.pairAll()
        await run.playTimelines()
        try await run.waitForExpectedReadings()
        let people = Dictionary(uniqueKeysWithValues: await run.rig.store.readings.map { ($0.userID ?? 255, $0.person) })
        #expect(people == [0: "alice", 1: "bob"])
        await run.rig.stop()
    }

    @Test("bluetoothd restarting mid-measurement: the Gateway sees it go and come back, and the reading still arrives")
    func bluetoothdRestart() async throws {
        let run = try await ScenarioRun.start("bluetoothd-restart.json")
        try await run.pairAll()
        await run.playTimelines()
        try await run.rig.next { if case .bluetoothAvailable(false) = $0 { true } else { false } }
        try await run.rig.next { if case .bluetoothAvailable(true) = $0 { true } else { false } }
        try await run.waitForExpectedReadings()
        await run.rig.stop()
    }

    @Test("Malformed packets are reported and skipped; the failed measurement is an event; the session goes on")
    func malformedAmongGood() async throws {
        let run = try await ScenarioRun.start("malformed-packets.json")
        try await run.pairAll()
        await run.playTimelines()
        try await run.waitForExpectedReadings()
        let malformed = run.rig.events.all.filter { if case .session(_, .malformedValue) = $0 { true } else { false } }
        #expect(malformed.count == 3)
        let failed = run.rig.events.all.filter { if case .session(_, .measurementFailed) = $0 { true } else { false } }
        #expect(failed.count == 1)
        let unknownTime = await run.rig.store.readings.first { $0.deviceTime == nil }
        #expect(unknownTime?.systolic.doubleValue == 120)
        #expect(unknownTime?.clockOffset == nil)
        await run.rig.stop()
    }

    @Test("A cuff with a Current Time service: its offset is measured, then its clock is set to local time")
    func clockSync() async throws {
        let run = try await ScenarioRun.start("passkey.json", [#""services": ["1810", "180A"]"#: #""services": ["1810", "180A", "1805"]"#])
        // The cuff's clock shows 2026-09-21 12:00:00; the Gateway's is at 14:13:20 UTC.
        let shows = CurrentTime(dateTime: DateTime(year: 2026, month: 9, day: 21, hours: 12, minutes: 0, seconds: 0), adjustReason: [])
        await run.central.set(HealthCharacteristic.currentTime.uuid, to: shows.encoded(), at: Self.passkeyCuff)
        try await run.pairAll()
        let event = try await run.rig.next { if case .clockSynchronized = $0 { true } else { false } }
        guard case .clockSynchronized(_, let offset, let written) = event else { return }
        #expect(written)
        #expect(offset == ClockOffset.measure(shows, at: EmbeddedGateway.now))
        let set = try CurrentTime(decoding: try #require(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).first))
        #expect(set.dateTime == DateTime(EmbeddedGateway.now, in: LocalTimeZone()), "the Gateway's local time")
        #expect(await run.central.writes(to: HealthCharacteristic.currentTime.uuid).count == 1)
        await run.rig.stop()
    }

    @Test("Forget drops the bond in bluetoothd and the cuff from the Gateway")
    func forget() async throws {
        let run = try await ScenarioRun.start("passkey.json")
        try await run.pairAll()
        try await run.gateway.forget(Self.passkeyCuff)
        #expect(await run.gateway.status(Self.passkeyCuff) == nil)
        #expect(await run.central.calls.filter { $0 == "RemoveDevice \(Self.passkeyCuff)" }.count == 1)
        #expect(await run.central.holds(Self.passkeyCuff) == (false, false))
        await #expect(throws: GatewayError.self) { try await run.gateway.forget(Self.passkeyCuff) }
        await run.rig.stop()
    }

    @Test("Two forgets of one cuff at once: one removes it, the other is told one is under way; nothing comes back")
    func concurrentForgets() async throws {
        let run = try await ScenarioRun.start("passkey.json")
        try await run.pairAll()
        let gateway = run.gateway
        async let first = Self.outcome { try await gateway.forget(Self.passkeyCuff) }
        async let second = Self.outcome { try await gateway.forget(Self.passkeyCuff) }
        let outcomes = await [first, second]
        // The second either overlaps the first (busy) or comes after it (unknown); never bluetoothd's
        // DoesNotExist from removing the device twice (docs/gateway.md, "Reentrancy").
        #expect(outcomes.filter { $0 == "removed" }.count == 1, "\(outcomes)")
        #expect(outcomes.allSatisfy { ["removed", "busy", "unknown"].contains($0) }, "\(outcomes)")
        // Every event bluetoothd sent meanwhile is handled: nothing brought the cuff back.
        await run.rig.settled()
        #expect(await run.gateway.status(Self.passkeyCuff) == nil)
        #expect(await run.rig.registry.records()[Self.passkeyCuff] == nil)
        #expect(await run.central.calls.filter { $0 == "RemoveDevice \(Self.passkeyCuff)" }.count == 1)
        await run.rig.stop()
    }

    /// What a forget came to, in one word.
    private static func outcome(_ forget: () async throws -> Void) async -> String {
        do {
            try await forget()
            return "removed"
        } catch GatewayError.busy {
            return "busy"
        } catch GatewayError.unknownCuff {
            return "unknown"
        } catch {
            return "\(error)"
        }
    }

    @Test("A cuff whose device bluetoothd dropped (bluetoothctl remove) stays remembered until forget, which then takes it")
    func forgetAfterBluetoothdDroppedIt() async throws {
        let run = try await ScenarioRun.start("passkey.json")
        try await run.pairAll()
        #expect(await run.gateway.rememberedCuffs == [Self.passkeyCuff])
        try await run.central.remove(DeviceID(adapter: run.scenario.adapter.address, address: Self.passkeyCuff))
        try await run.rig.next { if case .cuffRemoved(Self.passkeyCuff) = $0 { true } else { false } }
        #expect(await run.gateway.rememberedCuffs == [Self.passkeyCuff])
        try await run.gateway.forget(Self.passkeyCuff)
        #expect(await run.gateway.rememberedCuffs.isEmpty)
        await run.rig.stop()
    }

    @Test("scan discovers for the time asked, on the Gateway's clock, and returns the cuffs it saw")
    func scan() async throws {
        let run = try await ScenarioRun.start("two-cuffs.json")
        let scanning = Task { try await run.gateway.scan(for: .seconds(5)) }
        await run.rig.clock.sleepers(count: 1)
        #expect(await run.central.calls == ["StartDiscovery \(run.scenario.adapter.address)"])
        run.rig.clock.advance(by: .seconds(5))
        let found = try await scanning.value
        #expect(Set(found.map(\.device.id.address)) == Set(run.scenario.cuffs.map(\.address)))
        #expect(await run.central.calls.last == "StopDiscovery \(run.scenario.adapter.address)")
        await run.rig.stop()
    }
}

@Suite("Gateway in-process: vendor start and stop", .timeLimit(.minutes(1)))
struct VendorControlTests {
    static let cuff = BluetoothAddress("CA:23:9B:41:5F:08")!

    @Test("A QardioArm is told to start; its phases are reported and its reading ends the session")
    func qardioArmStarts() async throws {
        let run = try await ScenarioRun.start("qardioarm.json")
        try await run.pairAll()
        #expect(await run.gateway.status(Self.cuff)?.canStart == true)
        var reading: Reading?
        for await update in try await run.gateway.startMeasurement(Self.cuff, timeout: .seconds(20)) {
            if case .reading(_, let stored) = update { reading = stored }
        }
        #expect(reading?.systolic.doubleValue == 121)
        #expect(await run.central.writes(to: QardioArmControlPoint.uuid) == [[0xF1, 0x01]])
        let phases = run.rig.events.all.compactMap { if case .measurementPhase(_, let phase) = $0 { phase } else { nil } }
        #expect(phases.first == "inflating")
        await run.rig.stop()
    }

    @Test("stop sends the cancel command, the cuff aborts and the session ends as stopped")
    func qardioArmStops() async throws {
        let run = try await ScenarioRun.start("qardioarm.json")
        try await run.pairAll()
        // This one only inflates until told to cancel.
        await run.central.change(Self.cuff) { cuff in
            cuff.writeHandlers[QardioArmControlPoint.uuid] = { bytes, _, _ in
                let phase: QardioArmControlPoint.Phase = bytes == QardioArmControlPoint.Command.start.encoded() ? .inflating : .aborted
                return [EmbeddedPeripheral.Notification(QardioArmControlPoint.uuid, phase.encoded())]
            }
        }
        let updates = try await run.gateway.startMeasurement(Self.cuff, timeout: .seconds(20))
        try await run.rig.next { if case .measurementPhase(Self.cuff, "inflating") = $0 { true } else { false } }
        try await run.gateway.stopMeasurement(Self.cuff)
        var last: MeasurementUpdate?
        for await update in updates { last = update }
        guard case .stopped? = last else { Issue.record("ended with \(String(describing: last))"); return }
        #expect(await run.central.writes(to: QardioArmControlPoint.uuid) == [[0xF1, 0x01], [0xF1, 0x02]])
        #expect(await run.rig.store.readings.isEmpty)
        await run.rig.stop()
    }
}
