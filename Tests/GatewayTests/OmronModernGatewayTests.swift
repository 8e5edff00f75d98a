import BlueZ
import DBusTestSupport
import Foundation
import Gateway
import GATTHealth
import Testing

/// An Omron cuff of the 0xFE4A service (docs/omron.md §1–§3, §7) over cuff-sim: whole packets on one channel,
/// pairing by bond alone, the token unlock on every connection, and the same "bad input" rules as the classic
/// service. The shipped scenario omron-fe4a.json shows the readings; these show the rest.
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

    @Test("A token the cuff does not echo: pair is refused in words and leaves no bond or cuff behind")
    func tokenRefused() async throws {
        try await OmronGatewayTests.pairingError(
            ["\"model\": \"HEM-7142T2\",\n": "\"model\": \"HEM-7142T2\", \"refusesToken\": true,\n"], file: "omron-fe4a.json", address: Self.address
        ) { harness, error in
            guard case .refused(Self.address, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("the cuff did not unlock its memory: the token"), "\(why)")
            #expect(why.contains("answer 91 01"), "\(why)")
            try await OmronGatewayTests.expectNothingLeft(harness, Self.address)
        }
    }

    @Test("A cuff of the 0xFE4A service whose model cuffd knows only on the classic service: refused, naming the 0xFE4A models")
    func classicModelOnTheNewService() async throws {
        try await OmronGatewayTests.pairingError(
            ["\"model\": \"HEM-7142T2-Z\"": "\"model\": \"HEM-7155T\""], file: "omron-fe4a.json", address: Self.address
        ) { harness, error in
            guard case .refused(Self.address, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("offers Omron's service 0xFE4A, but cuffd knows its memory there only for HEM-7142T2, HEM-716BT2, HEM-7146T2"), "\(why)")
            #expect(harness.log.count("Omron token unlock written") == 0)
            try await OmronGatewayTests.expectNothingLeft(harness, Self.address)
        }
    }

    @Test("HEM-7146T2: no unlock at all; the bond alone opens the memory")
    func withoutUnlock() async throws {
        try await withTeardown { teardown in
            let harness = try await OmronGatewayTests.harness("omron-fe4a.json", ["HEM-7142T2": "HEM-7146T2"], teardown)
            _ = try await harness.gateway.pair(Self.address, passkey: nil, timeout: .seconds(30))
            try await harness.waitForExpectedReadings()
            #expect(harness.log.count("Omron token unlock written") == 0)
        }
    }

    @Test("A block that keeps arriving broken: three tries, then the download ends and nothing of it is stored")
    func brokenBlocksEndTheDownload() async throws {
        // Four broken answers: the clock block's one is read again, then the first record block fails three times.
        try await OmronGatewayTests.expectBrokenBlocksEndTheDownload("omron-fe4a.json", model: "HEM-7142T2", address: Self.address, corruptReads: 4)
    }
}
