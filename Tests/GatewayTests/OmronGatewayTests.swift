import BlueZ
import CuffSimulation
import FoundationEssentials
import GATTHealth
import GatewayTestSupport
import Testing
@testable import Gateway

/// An Omron cuff through Omron's own service (docs/omron.md §6), in-process: the shipped scenarios' Omron cuffs with
/// cuff-sim's memory and answers (``EmbeddedOmronCuff``) — what the shipped scenarios do not show: the journal's
/// counts, people, a cuff not in pairing mode, a block that keeps arriving broken.
@Suite("Gateway in-process: Omron cuffs", .timeLimit(.minutes(1)))
struct OmronGatewayTests {
    /// The Gateway's local wall clock, which it sets Omron clocks to.
    static let localNow = DateTime(EmbeddedGateway.now, in: LocalTimeZone())

    @Test("Erased slots and impossible records are skipped and counted; a re-read block is stored once")
    func skippedRecordsAreCounted() async throws {
        try await ScenarioRun.afterExpectedReadings("omron-clock-reset.json") { run in
            let address = BluetoothAddress("28:FF:B2:10:7A:05")!
            let downloaded = try await run.rig.next { if case .recordsDownloaded(address, _) = $0 { true } else { false } }
            guard case .recordsDownloaded(_, let count) = downloaded else { return }
            // Five decoded, of which the diastolic 0 is a failed measurement, not a reading.
            #expect(count == 5)
            let skipped = try await run.rig.next { event in
                if case .problem(address, let text) = event { text.hasPrefix("skipped") } else { false }
            }
            guard case .problem(_, let text) = skipped else { return }
            #expect(text.contains("skipped 1 erased Omron slot(s) (all FF) and 1 record(s) that decode to nonsense"))
            #expect(text.contains("impossible date 2026-13-1"))
            #expect(await run.central.omron(at: address)?.corruptReadsSent == 2)
        }
    }

    @Test("Omron user numbers map to the people the configuration names; records carry the status bits")
    func peopleAndStatus() async throws {
        let people = ScenarioRun.configuration(people: [1: "alice", 2: "bob"], on: "28:FF:B2:10:4C:31")
        try await ScenarioRun.afterExpectedReadings("omron-two-users.json", configuration: people) { run in
            let readings = await run.rig.store.readings
            #expect(Set(readings.map { "\($0.userID ?? 0) \($0.person ?? "-")" }) == ["1 alice", "2 bob"])
            let irregular = try #require(readings.first { $0.systolic.doubleValue == 142 })
            #expect(irregular.status?.irregularPulse == true && irregular.status?.bodyMovement == false)
            #expect(readings.first { $0.systolic.doubleValue == 128 }?.status?.bodyMovement == true)
            // The cuff-fit bit (docs/omron.md §5): clear on the one record the scenario wrapped loosely.
            #expect(readings.filter { $0.status?.cuffTooLoose == true }.map(\.systolic.doubleValue) == [117])
            #expect(readings.allSatisfy { $0.meanArterialPressure == nil })
        }
    }

    @Test("The clock block is read before the records (its offset goes with them) and set to local time after")
    func clockSync() async throws {
        try await ScenarioRun.afterExpectedReadings("omron-two-users.json") { run in
            let address = BluetoothAddress("28:FF:B2:10:4C:31")!
            let synchronized = try await run.rig.next { if case .clockSynchronized(address, _, _) = $0 { true } else { false } }
            guard case let .clockSynchronized(_, offset, written) = synchronized else { return }
            // The cuff showed 2021-06-01 12:00.
            #expect(written && offset == ClockOffset.measure(CurrentTime(dateTime: DateTime(year: 2021, month: 6, day: 1, hours: 12, minutes: 0, seconds: 0), adjustReason: []), at: EmbeddedGateway.now))
            #expect(await run.central.omron(at: address)?.clock == Self.localNow)
            #expect(await run.gateway.status(address)?.clockOffset == ClockOffset.measure(CurrentTime(dateTime: Self.localNow, adjustReason: []), at: EmbeddedGateway.now))
        }
    }

    @Test("HEM-7320T: little-endian records, big-endian counters, a linear clock; a low battery said once, an upper-arm cuff's position bits not")
    func hem7320t() async throws {
        try await ScenarioRun.afterExpectedReadings("omron-hem7320t.json") { run in
            let address = BluetoothAddress("28:FF:B2:10:73:20")!
            // The model came from the Model Number String (HEM-7320T-Z); the ring of user 1 wrapped from slot 58 to 1.
            let readings = await run.rig.store.readings
            #expect(readings.count == 5 && readings.allSatisfy { $0.status?.improperPosition == false })
            // Both users' unread words were written back as "none unread", big-endian (0x8000 reads as 0).
            #expect(await run.central.omron(at: address)?.counters == OmronCounters(nextSlots: [2, 2], unread: [0, 0]))
            let synchronized = try await run.rig.next { if case .clockSynchronized(address, _, _) = $0 { true } else { false } }
            guard case let .clockSynchronized(_, offset, written) = synchronized else { return }
            let measured = try #require(offset)
            #expect(written && measured > .seconds(3 * 365 * 86_400))
            #expect(await run.central.omron(at: address)?.clock == Self.localNow)
            let battery = try await run.rig.next { event in
                if case .problem(address, let text) = event { text.contains("batteries") } else { false }
            }
            guard case .problem(_, let text) = battery else { return }
            #expect(text == "the cuff's batteries are low: its record of 2026-09-04T21:15:00 says they should be replaced")
            #expect(run.rig.events.all.filter { if case .problem(_, let text) = $0 { text.contains("batteries") } else { false } }.count == 1)
            // And on its status, which cuffd shows as Cuff1's BatteryLow; it has no Battery Service.
            let status = await run.gateway.status(address)
            #expect(status?.batteryLow == true && status?.batteryLevel == nil)
        }
    }

    @Test("HEM-7280T: a code listed as HEM-7322T's equivalent, read from its Model Number String with that model's memory and clock")
    func hem7280t() async throws {
        try await ScenarioRun.afterExpectedReadings("omron-hem7280t.json") { run in
            let address = BluetoothAddress("28:FF:B2:10:72:80")!
            // The pairing link read 2 + 3 unread records, the one after the cuff came back user 2's new one, in slot 1 of
            // the ring that wrapped from slot 98; each download ends with both users' unread words "none unread".
            _ = try await run.rig.next { if case .recordsDownloaded(address, count: 5) = $0 { true } else { false } }
            _ = try await run.rig.next { if case .recordsDownloaded(address, count: 1) = $0 { true } else { false } }
            #expect(await run.central.omron(at: address)?.counters == OmronCounters(nextSlots: [3, 2], unread: [0, 0]))
            // The "mixed" clock (2023) was read and set on each link.
            #expect(await run.central.omron(at: address)?.clock == Self.localNow)
        }
    }

    @Test("HEM-6161T: a wrist cuff's position bits flag its readings; no counters, every slot read; the classic offset 8 clock")
    func hem6161t() async throws {
        try await ScenarioRun.afterExpectedReadings("omron-hem6161t.json") { run in
            let address = BluetoothAddress("28:FF:B2:10:61:61")!
            // Positions 1 and 2: the wrist was not at heart level (docs/omron.md §5); the others are 0.
            let readings = await run.rig.store.readings
            #expect(readings.filter { $0.status?.improperPosition == true }.map(\.systolic.doubleValue).sorted() == [130, 137])
            let synchronized = try await run.rig.next { if case .clockSynchronized(address, _, _) = $0 { true } else { false } }
            guard case let .clockSynchronized(_, offset, written) = synchronized else { return }
            let measured = try #require(offset)
            #expect(written && measured > .seconds(2 * 365 * 86_400))
            #expect(await run.central.omron(at: address)?.clock == Self.localNow)
        }
    }

    static let wrapped = BluetoothAddress("28:FF:B2:10:91:6E")!

    /// `file` (omron-wrapped.json) with `edits` (each text present): pairing its cuff at `address` (with `passkey`)
    /// must fail; `body` gets the run and the error. `keyRequests` is how often the Gateway asks the cuff for key
    /// programming, 300 ms apart (docs/omron.md §2), each after the first waiting on the test's clock.
    static func pairingError(
        _ edits: [String: String], file: String = "omron-wrapped.json", address: BluetoothAddress = wrapped, passkey: UInt32? = nil,
        keyRequests: Int = 1, _ body: (ScenarioRun, GatewayError) async throws -> Void
    ) async throws {
        let original = try String(contentsOf: EmbeddedPeripheral.scenarioFolder.appendingPathComponent(file), encoding: .utf8)
        for text in edits.keys { #expect(original.contains(text)) }
        let run = try await ScenarioRun.start(file, edits)
        let gateway = run.gateway
        let pairing = Task { try await gateway.pair(address, passkey: passkey, timeout: .seconds(30)) }
        for _ in 1 ..< keyRequests { await run.rig.clock.advanceWhenSleeping(for: .milliseconds(300)) }
        do {
            _ = try await pairing.value
            Issue.record("pairing succeeded")
        } catch let error as GatewayError {
            try await body(run, error)
        }
        await run.rig.stop()
    }

    @Test("A cuff not in pairing mode: asked three times, pair is refused in words and leaves no bond, key or cuff behind")
    func notInPairingMode() async throws {
        try await Self.pairingError(["\"model\": \"HEM-7155T\",\n": "\"model\": \"HEM-7155T\", \"pairingMode\": false,\n"], keyRequests: 3) { run, error in
            guard case .refused(Self.wrapped, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("not in pairing mode: hold its Bluetooth button until \"P\" blinks"))
            #expect(await run.central.writes(to: OmronService.unlock).filter { $0.first == 0x02 }.count == 3)
            try await Self.expectNothingLeft(run)
        }
    }

    @Test("A wrong passkey: bluetoothd's refusal is passed on, and nothing of the cuff stays")
    func wrongPasskey() async throws {
        try await Self.pairingError(["\"pairing\": \"justWorks\"": "\"pairing\": \"passkey:123456\""], passkey: 111_111) { run, error in
            guard case .bluez(let refusal) = error else { Issue.record("\(error)"); return }
            #expect(refusal.kind == .authenticationFailed)
            #expect(await run.central.writes(to: OmronService.unlock).isEmpty)
            try await Self.expectNothingLeft(run)
        }
    }

    /// After a failed pairing: the Gateway no longer knows the cuff, bluetoothd's device (and any bond) is removed,
    /// no key or identity is remembered, nothing is stored.
    static func expectNothingLeft(_ run: ScenarioRun, _ address: BluetoothAddress = wrapped) async throws {
        #expect(await run.gateway.status(address) == nil)
        #expect(await run.central.calls.filter { $0 == "RemoveDevice \(address)" }.count == 1)
        #expect(await run.central.holds(address) == (false, false))
        #expect(await run.rig.registry.records()[address] == nil)
        #expect(await run.rig.store.readings.isEmpty)
    }

    @Test("A cuff whose name and Model Number name no known model: pair says which models cuffd knows, and leaves no bond")
    func unknownModel() async throws {
        let edits = ["\"name\": \"HEM-7155T\"": "\"name\": \"BLESmart_00001234\"", "\"model\": \"HEM-7155T\", \"serial\"": "\"model\": \"HEM-9999T\", \"serial\""]
        try await Self.pairingError(edits) { run, error in
            #expect("\(error)".contains("BLESmart_00001234 offers Omron's service ecbe3980, but cuffd knows its memory there only for HEM-7150T, HEM-7151T, HEM-7155T"))
            #expect(!"\(error)".contains("HEM-7142T2"))
            #expect(await run.gateway.status(Self.wrapped) == nil)
            #expect(await run.central.writes(to: OmronService.unlock).isEmpty)
        }
    }

    @Test("A block that keeps arriving broken: three tries, then the download ends, nothing of it is stored, and pair says so; the cuff stays paired")
    func brokenBlocksEndTheDownload() async throws {
        try await Self.expectBrokenBlocksEndTheDownload("omron-wrapped.json", model: "HEM-7155T", address: Self.wrapped, corruptReads: 3)
    }

    /// Pairs the cuff of `file` (of `model`) with `corruptReads` read answers broken: the download must stop after
    /// three tries of one block, nothing of it be stored, and `pair` say so though the cuff stays paired.
    static func expectBrokenBlocksEndTheDownload(_ file: String, model: String, address: BluetoothAddress, corruptReads: Int) async throws {
        let run = try await ScenarioRun.start(file, ["\"model\": \"\(model)\",\n": "\"model\": \"\(model)\", \"corruptReads\": \(corruptReads),\n"])
        let failure = await #expect(throws: GatewayError.self) { try await run.gateway.pair(address, passkey: nil, timeout: .seconds(30)) }
        guard case let .downloadStopped(cuff, records, why)? = failure else { Issue.record("\(String(describing: failure))"); return }
        #expect(cuff == address && records == 0)
        #expect(why.contains("bad checksum") && why.contains("3 times; nothing of that block was stored"), "\(why)")
        #expect(String(describing: failure!).contains("is paired and trusted, but the download of its stored readings stopped after 0 records"))
        let status = try #require(await run.gateway.status(address), "the cuff stays")
        #expect(status.paired && status.trusted)
        #expect(await run.central.holds(address) == (true, true))
        #expect(!(await run.central.calls).contains("RemoveDevice \(address)"))
        let stopped = try await run.rig.next { event in
            if case .problem(address, let text) = event { text.contains("download stopped") } else { false }
        }
        guard case .problem(_, let text) = stopped else { return }
        #expect(text.contains("bad checksum") && text.contains("3 times; nothing of that block was stored"), "\(text)")
        let omron = try #require(await run.central.omron(at: address))
        #expect(omron.corruptReadsSent == 3, "the three tries of one block: \(omron.log)")
        #expect(await run.rig.store.readings.isEmpty)
        await run.rig.stop()
    }
}
