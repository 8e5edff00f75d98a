import BlueZ
import DBusTestSupport
import Foundation
import Gateway
import GATTHealth
import Testing

@Suite("Gateway over cuff-sim: sessions, pairing, time, identity")
struct GatewaySessionTests {
    @Test("start shows the cuff pressure as it rises, then the new reading; re-sent records do not end it")
    func measurementWithProgress() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "one-cuff.json")
            teardown.add { await harness.stop() }
            let cuff = BluetoothAddress("C4:F3:12:53:F2:C9")!
            try await harness.pairAll()
            var pressures: [Double] = []
            var result: Reading?
            for await update in try await harness.gateway.startMeasurement(cuff, timeout: .seconds(20)) {
                switch update {
                case .state(_, .measuring(let pressure, _)): pressures.append(pressure.doubleValue)
                case .reading(_, let reading): result = reading
                case .failed, .timedOut, .stopped: Issue.record("unexpected end: \(update)")
                case .state: continue
                }
            }
            #expect(pressures == [40, 120, 180])
            #expect(result?.systolic.doubleValue == 122)
            #expect(result?.userID == 1)
            // The stored record, indicated on the pairing link and again on the wake-up link, stored once.
            #expect(await harness.store.readings.count == 2)
        }
    }

    @Test("A start with nothing arriving ends with timedOut; stop ends a session at once")
    func timeoutAndStop() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "passkey.json")
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            let cuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
            var last: MeasurementUpdate?
            for await update in try await harness.gateway.startMeasurement(cuff, timeout: .milliseconds(300)) { last = update }
            guard case .timedOut? = last else { Issue.record("ended with \(String(describing: last))"); return }

            let stream = try await harness.gateway.startMeasurement(nil, timeout: .seconds(30))
            try await harness.gateway.stopMeasurement(cuff)
            var ending: MeasurementUpdate?
            for await update in stream { ending = update }
            guard case .stopped? = ending else { Issue.record("ended with \(String(describing: ending))"); return }
            await #expect(throws: GatewayError.self) { try await harness.gateway.startMeasurement(BluetoothAddress("00:11:22:33:44:55")!, timeout: .seconds(1)) }
        }
    }

    @Test("Energy Expended is reset through the Heart Rate Control Point; a cuff without one says so, an unknown address too")
    func resetEnergyExpended() async throws {
        try await withTeardown { teardown in
            let strap = try await GatewayHarness(scenarioFile: "strap.json")
            teardown.add { await strap.stop() }
            try await strap.pairAll()
            try await strap.gateway.resetEnergyExpended(BluetoothAddress("E8:3C:A1:07:6D:21")!)
            #expect(strap.log.all.contains { $0.contains("2A39") && $0.contains("written: 01 (Energy Expended reset)") }, "\(strap.log.all)")

            let cuff = try await GatewayHarness(scenarioFile: "passkey.json")
            teardown.add { await cuff.stop() }
            try await cuff.pairAll()
            await #expect {
                try await cuff.gateway.resetEnergyExpended(BluetoothAddress("D0:5F:B8:4A:21:07")!)
            } throws: { error in
                if case .unsupported = error as? GatewayError { true } else { false }
            }
            await #expect {
                try await cuff.gateway.resetEnergyExpended(BluetoothAddress("00:11:22:33:44:55")!)
            } throws: { error in
                if case .unknownCuff = error as? GatewayError { true } else { false }
            }
        }
    }

    @Test("A passkey asked for through the control API while bluetoothd waits; a wrong one fails")
    func passkeyRelayed() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "passkey.json")
            teardown.add { await harness.stop() }
            let cuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
            let answering = Task {
                _ = try await harness.events.next { if case .passkeyRequested(cuff) = $0 { true } else { false } }
                try await harness.gateway.providePasskey(123_456, for: cuff)
            }
            let status = try await harness.gateway.pair(cuff, passkey: nil, timeout: .seconds(10))
            try await answering.value
            #expect(status.paired && status.trusted)

            let again = try await GatewayHarness(scenarioFile: "passkey.json")
            teardown.add { await again.stop() }
            let failure = await #expect(throws: GatewayError.self) { try await again.gateway.pair(cuff, passkey: 111_111, timeout: .seconds(10)) }
            guard case .bluez(let error)? = failure else { Issue.record("\(String(describing: failure))"); return }
            #expect(error.kind == .authenticationFailed)
        }
    }

    @Test("Values that arrive before Device Information is read are held, so every reading names the cuff by its serial")
    func identityBeforeReadings() async throws {
        try await withTeardown { teardown in
            // The cuff keeps its first link 2.5 s instead of 0.5 s, so that Device Information is read on it even on a
            // loaded machine (the link dropping first is another story: readings then wait for the next link).
            let json = try String(contentsOf: GatewayHarness.folder.appendingPathComponent("stored-records.json"), encoding: .utf8)
                .replacingOccurrences(of: #"{"after": 0.5, "disconnect": true}"#, with: #"{"after": 2.5, "disconnect": true}"#)
            let harness = try await GatewayHarness(Data(json.utf8))
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            try await harness.waitForExpectedReadings()
            let keys = Set(await harness.store.readings.map(\.device.stableKey))
            #expect(keys == ["serial:cuffd project/SIM-HISTORY/0003"])
            let status = try #require(await harness.gateway.status(BluetoothAddress("E8:2A:44:10:3C:5D")!))
            #expect(status.identity?.model == "SIM-HISTORY")
        }
    }

    @Test("Two users on one cuff map to the people the configuration names; 255 stays nobody")
    func twoUsers() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "two-users.json", people: [0: "alice", 1: "bob"], on: "A4:C1:38:5E:77:02")
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            try await harness.waitForExpectedReadings()
            let people = Dictionary(uniqueKeysWithValues: await harness.store.readings.map { ($0.userID ?? 255, $0.person) })
            #expect(people == [0: "alice", 1: "bob"])
        }
    }

    @Test("bluetoothd restarting mid-measurement: the Gateway sees it go and come back, and the reading still arrives")
    func bluetoothdRestart() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "bluetoothd-restart.json")
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            _ = try await harness.events.next { if case .bluetoothAvailable(false) = $0 { true } else { false } }
            _ = try await harness.events.next { if case .bluetoothAvailable(true) = $0 { true } else { false } }
            try await harness.waitForExpectedReadings()
            #expect(harness.log.count("auto-connecting (GattProfile1)") >= 2)
        }
    }

    @Test("Malformed packets are reported and skipped; the failed measurement is an event; the session goes on")
    func malformedAmongGood() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "malformed-packets.json")
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            try await harness.waitForExpectedReadings()
            let malformed = harness.events.all.filter { if case .session(_, .malformedValue) = $0 { true } else { false } }
            #expect(malformed.count == 3)
            let unknownTime = await harness.store.readings.first { $0.deviceTime == nil }
            #expect(unknownTime?.systolic.doubleValue == 120)
            #expect(unknownTime?.clockOffset == nil)
        }
    }

    @Test("A cuff with a Current Time service: its offset is measured, then its clock is set to local time")
    func clockSync() async throws {
        try await withTeardown { teardown in
            let json = try String(contentsOf: GatewayHarness.folder.appendingPathComponent("passkey.json"), encoding: .utf8)
                .replacingOccurrences(of: #""services": ["1810", "180A"]"#, with: #""services": ["1810", "180A", "1805"]"#)
                // Its first link lasts 2.5 s, long enough for the clock to be read and set on a loaded machine.
                .replacingOccurrences(of: #"{"after": 0.5, "disconnect": true}"#, with: #"{"after": 2.5, "disconnect": true}"#)
            let harness = try await GatewayHarness(Data(json.utf8))
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            let event = try await harness.events.next { if case .clockSynchronized = $0 { true } else { false } }
            guard case .clockSynchronized(_, let offset, let written) = event else { return }
            #expect(written)
            // cuff-sim's clock started with it a moment ago, on this machine's local time.
            let zone = Duration.seconds(-TimeZone.current.secondsFromGMT())
            #expect(abs((offset - zone) / .seconds(1)) < 30)
            #expect(harness.log.count("0x2A2B written") == 1)
        }
    }

    @Test("Forget drops the bond in bluetoothd and the cuff from the Gateway")
    func forget() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "passkey.json")
            teardown.add { await harness.stop() }
            let cuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
            try await harness.pairAll()
            try await harness.gateway.forget(cuff)
            #expect(await harness.gateway.status(cuff) == nil)
            #expect(harness.log.count("removed by RemoveDevice") == 1)
            await #expect(throws: GatewayError.self) { try await harness.gateway.forget(cuff) }
        }
    }

    @Test("Two forgets of one cuff at once: one removes it, the other is told one is under way; nothing comes back")
    func concurrentForgets() async throws {
        try await withTeardown { teardown in
            let (harness, cuff) = try await Self.rememberedPasskeyCuff(teardown)
            async let first = Self.outcome { try await harness.gateway.forget(cuff) }
            async let second = Self.outcome { try await harness.gateway.forget(cuff) }
            let outcomes = await [first, second]
            // The second either overlaps the first (busy) or comes after it (unknown); never bluetoothd's
            // DoesNotExist from removing the device twice (docs/gateway.md, "Reentrancy").
            #expect(outcomes.filter { $0 == "removed" }.count == 1, "\(outcomes)")
            #expect(outcomes.allSatisfy { ["removed", "busy", "unknown"].contains($0) }, "\(outcomes)")
            try await Task.sleep(for: .milliseconds(300))
            #expect(await harness.gateway.status(cuff) == nil)
            #expect(await harness.registry.records()[cuff] == nil)
            #expect(harness.log.count("removed by RemoveDevice") == 1)
        }
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

    /// passkey.json's cuff paired and remembered: what a forget starts from.
    static func rememberedPasskeyCuff(_ teardown: Teardown) async throws -> (GatewayHarness, BluetoothAddress) {
        let harness = try await GatewayHarness(scenarioFile: "passkey.json")
        teardown.add { await harness.stop() }
        let cuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
        try await harness.pairAll()
        try await harness.waitUntilRemembered(cuff)
        return (harness, cuff)
    }

    @Test("A cuff whose device bluetoothd dropped (bluetoothctl remove) stays remembered until forget, which then takes it")
    func forgetAfterBluetoothdDroppedIt() async throws {
        try await withTeardown { teardown in
            let (harness, cuff) = try await Self.rememberedPasskeyCuff(teardown)
            #expect(await harness.gateway.rememberedCuffs == [cuff])
            _ = try await harness.connection.call(
                "org.bluez", "/org/bluez/hci0", "org.bluez.Adapter1", "RemoveDevice", [.objectPath("/org/bluez/hci0/dev_D0_5F_B8_4A_21_07")])
            _ = try await harness.events.next { if case .cuffRemoved(cuff) = $0 { true } else { false } }
            #expect(await harness.gateway.rememberedCuffs == [cuff])
            try await harness.gateway.forget(cuff)
            #expect(await harness.gateway.rememberedCuffs.isEmpty)
        }
    }
}

@Suite("Gateway over cuff-sim: vendor start and stop")
struct VendorControlTests {
    static let cuff = BluetoothAddress("CA:23:9B:41:5F:08")!

    @Test("A QardioArm is told to start; its phases are reported and its reading ends the session")
    func qardioArmStarts() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "qardioarm.json")
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            #expect(await harness.gateway.status(Self.cuff)?.canStart == true)
            var reading: Reading?
            for await update in try await harness.gateway.startMeasurement(Self.cuff, timeout: .seconds(20)) {
                if case .reading(_, let stored) = update { reading = stored }
            }
            #expect(reading?.systolic.doubleValue == 121)
            #expect(harness.log.count("QardioArm control written: F1 01") == 1)
            let phases = harness.events.all.compactMap { if case .measurementPhase(_, let phase) = $0 { phase } else { nil } }
            #expect(phases.first == "inflating")
        }
    }

    @Test("stop sends the cancel command, the cuff aborts and the session ends as stopped")
    func qardioArmStops() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(scenarioFile: "qardioarm.json")
            teardown.add { await harness.stop() }
            try await harness.pairAll()
            let updates = try await harness.gateway.startMeasurement(Self.cuff, timeout: .seconds(20))
            try await Task.sleep(for: .milliseconds(300))
            try await harness.gateway.stopMeasurement(Self.cuff)
            var last: MeasurementUpdate?
            for await update in updates { last = update }
            guard case .stopped? = last else { Issue.record("ended with \(String(describing: last))"); return }
            #expect(harness.log.count("QardioArm control written: F1 02") == 1)
            #expect(await harness.store.readings.isEmpty)
        }
    }
}
