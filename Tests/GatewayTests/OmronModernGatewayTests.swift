import BlueZ
import DBusTestSupport
import Foundation
import Gateway
import GATTHealth
import GatewayTestSupport
import Testing

/// An Omron cuff of the 0xFE4A service (docs/omron.md §1–§3, §7) over cuff-sim, end to end: whole packets on one
/// channel, pairing by bond alone, the token unlock as a Write Command on every connection. The shipped scenario
/// omron-fe4a.json shows the readings; this shows the rest, and OmronModernInProcessTests the refusals.
@Suite("Gateway over cuff-sim: Omron cuffs of the 0xFE4A service")
struct OmronModernGatewayTests {
    static let address = BluetoothAddress("28:FF:B2:10:71:42")!

    @Test("HEM-7142T2: token unlock as a Write Command, every slot read (no counters), nonsense and erased slots counted, the clock set")
    func download() async throws {
        try await GatewayHarness.afterExpectedReadings("omron-fe4a.json") { harness in
            let address = Self.address
            let first = try await harness.next { if case .recordsDownloaded(address, _) = $0 { true } else { false } }
            guard case .recordsDownloaded(_, let count) = first else { return }
            #expect(count == 3)
            let skipped = try await harness.next { event in
                if case .problem(address, let text) = event { text.hasPrefix("skipped") } else { false }
            }
            guard case .problem(_, let text) = skipped else { return }
            // 14 slots: 4 written, one of them month 13.
            #expect(text.contains("skipped 10 erased Omron slot(s) (all FF) and 1 record(s) that decode to nonsense"), "\(text)")
            #expect(text.contains("impossible date 2026-13-5"), "\(text)")
            // Two links, each unlocked with its own token; no pairing key was ever programmed.
            #expect(harness.log.count("Omron token unlock written") == 2)
            #expect(harness.log.count("Omron unlock written") == 0 && harness.log.count("Write Command ignored") == 0)
            #expect(await harness.registry.records()[address]?.omronKey == nil)
            let readings = await harness.store.readings
            #expect(readings.filter { $0.status?.irregularPulse == true }.map(\.systolic.doubleValue) == [131])
            #expect(readings.filter { $0.status?.cuffTooLoose == true }.map(\.systolic.doubleValue) == [125])
            #expect(await harness.emulator.omronClock(of: address)?.year == DateTime(Date(), in: LocalTimeZone()).year)
        }
    }
}

/// The same "bad input" rules on the 0xFE4A service as on the classic one, in-process (``EmbeddedOmronCuff``).
@Suite("Gateway in-process: Omron cuffs of the 0xFE4A service", .timeLimit(.minutes(1)))
struct OmronModernInProcessTests {
    static let address = OmronModernGatewayTests.address

    @Test("A token the cuff does not echo: pair is refused in words and leaves no bond or cuff behind")
    func tokenRefused() async throws {
        try await OmronGatewayTests.pairingError(
            ["\"model\": \"HEM-7142T2\",\n": "\"model\": \"HEM-7142T2\", \"refusesToken\": true,\n"], file: "omron-fe4a.json", address: Self.address
        ) { run, error in
            guard case .refused(Self.address, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("the cuff did not unlock its memory: the token"), "\(why)")
            #expect(why.contains("answer 91 01"), "\(why)")
            try await OmronGatewayTests.expectNothingLeft(run, Self.address)
        }
    }

    @Test("A cuff of the 0xFE4A service whose model cuffd knows only on the classic service: refused, naming the 0xFE4A models")
    func classicModelOnTheNewService() async throws {
        try await OmronGatewayTests.pairingError(
            ["\"model\": \"HEM-7142T2-Z\"": "\"model\": \"HEM-7155T\""], file: "omron-fe4a.json", address: Self.address
        ) { run, error in
            guard case .refused(Self.address, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("offers Omron's service 0xFE4A, but cuffd knows its memory there only for HEM-7142T2, HEM-716BT2, HEM-7146T2"), "\(why)")
            #expect(await run.central.writes(to: OmronService.unlock).isEmpty)
            try await OmronGatewayTests.expectNothingLeft(run, Self.address)
        }
    }

    @Test("A BLESmart cuff whose Model Number String names a model cuffd refuses (HEM-7380T1): refused naming it and why, before any unlock")
    func refusedModelReadOncePaired() async throws {
        try await OmronGatewayTests.pairingError(
            ["\"model\": \"HEM-7142T2-Z\"": "\"model\": \"HEM-7380T1-EOSL\""], file: "omron-fe4a.json", address: Self.address
        ) { run, error in
            guard case .refused(Self.address, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.hasPrefix("the Omron HEM-7380T1 is not supported: "), "\(why)")
            #expect(why.contains("bonds anew on every link"), "\(why)")
            #expect(await run.central.writes(to: OmronService.unlock).isEmpty)
            try await OmronGatewayTests.expectNothingLeft(run, Self.address)
        }
    }

    @Test("A HEM-7196T1 advertising its code: pair refuses it by name before bluetoothd is asked anything")
    func refusedModelByItsName() async throws {
        try await OmronGatewayTests.pairingError(
            ["\"name\": \"BLESmart_00007142\"": "\"name\": \"HEM-7196T1-FLE\""], file: "omron-fe4a.json", address: Self.address
        ) { run, error in
            guard case .refused(Self.address, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.hasPrefix("the Omron HEM-7196T1 is not supported: "), "\(why)")
            #expect(await run.central.calls.filter { $0.hasPrefix("Pair ") }.isEmpty)
            #expect(await run.gateway.status(Self.address) == nil)
        }
    }

    @Test("HEM-7146T2: no unlock at all; the bond alone opens the memory")
    func withoutUnlock() async throws {
        let run = try await ScenarioRun.start("omron-fe4a.json", ["HEM-7142T2": "HEM-7146T2"])
        try await run.pairAll()
        await run.playTimelines()
        try await run.waitForExpectedReadings()
        #expect(await run.central.writes(to: OmronService.unlock).isEmpty)
        await run.rig.stop()
    }

    @Test("A block that keeps arriving broken: three tries, then the download ends, nothing of it is stored, and pair says so; the cuff stays paired")
    func brokenBlocksEndTheDownload() async throws {
        // Four broken answers ready, more than the three tries: the first block read (the clock's) fails three times.
        try await OmronGatewayTests.expectBrokenBlocksEndTheDownload("omron-fe4a.json", model: "HEM-7142T2", address: Self.address, corruptReads: 4)
    }
}
