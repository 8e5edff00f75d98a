import BlueZ
import Gateway
import GATTHealth
import GatewayTestSupport
import Testing

/// An Omron HEM-7188T1, which forgets its bond after each link (docs/omron.md §6; `omron-hem7188t1.json`), in-process:
/// cuffd removes bluetoothd's bond when each link ends, keeps discovery on while it remembers the cuff, pairs anew when
/// it advertises and reads it as on any link; `forget` ends all of it. The shipped-scenario suites run the same file
/// over cuff-sim.
@Suite("Gateway in-process: an Omron cuff that bonds anew on every link", .timeLimit(.minutes(1)))
struct OmronRebondGatewayTests {
    static let address = BluetoothAddress("C1:C5:AB:25:28:60")!

    @Test("The second link's readings arrive over a fresh bond; forget stops the discovery and removes everything")
    func secondLinkOverAFreshBond() async throws {
        try await ScenarioRun.afterExpectedReadings("omron-hem7188t1.json") { run in
            let address = Self.address
            let adapter = run.scenario.adapter.address
            // The pairing link read the two records, the link after the fresh bond all three (every slot is read each time).
            _ = try await run.rig.next { if case .recordsDownloaded(address, count: 2) = $0 { true } else { false } }
            _ = try await run.rig.next { if case .recordsDownloaded(address, count: 3) = $0 { true } else { false } }
            // pair's discovery and Pair; the link ends: the bond removed, discovery on for 0xFE4A; the cuff advertises: Pair.
            // (The second link's end may follow at once.)
            #expect(Array(await run.central.calls.prefix(6)) == [
                "StartDiscovery \(adapter)", "StopDiscovery \(adapter)", "Pair \(address)",
                "RemoveDevice \(address)", "StartDiscovery \(adapter)", "Pair \(address)",
            ])
            // No problem but the erased slots each download skips (28 of 30, then 27), said after each download's count.
            _ = try await run.rig.next { if case .problem(address, let text) = $0 { text.hasPrefix("skipped 27 ") } else { false } }
            let problems = run.rig.events.all.compactMap { if case .problem(address, let text) = $0 { text } else { nil } }
            #expect(problems.count == 2 && problems.allSatisfy { $0.hasPrefix("skipped") }, "\(problems)")
            // Each link unlocked with its own token (docs/omron.md §2).
            let tokens = await run.central.writes(to: OmronService.unlock)
            #expect(tokens.count == 2 && Set(tokens).count == 2)
            #expect(await run.gateway.rememberedCuffs == [address])

            let before = await run.central.calls.count
            try await run.gateway.forget(address)
            #expect(Array(await run.central.calls.dropFirst(before)) == ["StopNotify \(address)", "StopDiscovery \(adapter)", "RemoveDevice \(address)"])
            #expect(await run.gateway.rememberedCuffs.isEmpty)
            #expect(await run.gateway.status(address) == nil)
            #expect(await run.rig.registry.records().isEmpty)
            let held = await run.central.holds(address)
            #expect(!held.exported && !held.paired)
        }
    }

    @Test("Between links the cuff stays collected and remembered, unpaired, and discovery stays on, a scan's included")
    func betweenLinks() async throws {
        let run = try await ScenarioRun.start("omron-hem7188t1.json")
        try await run.pairAll()
        let address = Self.address
        // The cuff drops the pairing link and measures; it has not advertised yet.
        for step in run.scenario.cuffs[0].timeline.prefix(3) {
            await run.central.perform(step.action, on: address)
            await run.rig.settled()
        }
        let status = try #require(await run.gateway.status(address))
        #expect(!status.paired && !status.connected)
        #expect(await run.gateway.rememberedCuffs == [address])
        #expect(await run.central.calls.filter { $0.hasPrefix("Pair ") }.count == 1)
        let adapter = run.scenario.adapter.address
        #expect(await run.central.calls.last == "StartDiscovery \(adapter)")
        // A scan meanwhile takes discovery over for its time, then hands it back to the watch rather than stopping it.
        let scanning = Task { try await run.gateway.scan(for: .seconds(5)) }
        await run.rig.clock.sleepers(count: 1)
        run.rig.clock.advance(by: .seconds(5))
        _ = try await scanning.value
        #expect(Array(await run.central.calls.suffix(3)) == ["StartDiscovery \(adapter)", "StartDiscovery \(adapter)", "StartDiscovery \(adapter)"])
        await run.rig.stop()
    }

    @Test("cuffd restarted while the cuff was unbonded: the remembered cuff is looked for and paired anew once found")
    func afterARestart() async throws {
        // What the registry holds of a cuff whose bond cuffd removed before it stopped: its advertised name.
        var record = CuffRecord(address: Self.address)
        record.identity = DeviceIdentity(address: Self.address, name: "X2+ Connect_C1C5AB252860")
        let run = try await ScenarioRun.start("omron-hem7188t1.json", registry: InMemoryCuffRegistry([record]))
        let address = Self.address
        // Discovery on from the start; the cuff, advertising, is found and paired anew, and its two records are read.
        _ = try await run.rig.next { if case .recordsDownloaded(address, count: 2) = $0 { true } else { false } }
        // What came first: discovery, then the pairing that found the cuff. What follows the download (the link's end,
        // the bond removed, the cuff found again) runs on meanwhile and is `secondLinkOverAFreshBond`'s.
        #expect(Array(await run.central.calls.prefix(2)) == ["StartDiscovery \(run.scenario.adapter.address)", "Pair \(address)"])
        #expect(await run.rig.store.readings.count == 2)
        await run.rig.stop()
    }
    @Test("A pairing anew that fails is not tried again at each advertisement, only after a wait that doubles; the wait over, the cuff still shown is paired")
    func failedPairingWaits() async throws {
        let scenario = try EmbeddedPeripheral.scenario("omron-hem7188t1.json")
        var cuff = EmbeddedPeripheral(scenario.cuffs[0])
        cuff.reachable = false  // found by its advertisement, but `Pair` cannot connect it
        var record = CuffRecord(address: Self.address)
        record.identity = DeviceIdentity(address: Self.address, name: "X2+ Connect_C1C5AB252860")
        var configuration = GatewayConfiguration()
        configuration.rebondRetry = RetryBackoff(first: .seconds(5), maximum: .seconds(60))
        let rig = try await EmbeddedGateway.start([cuff], configuration: configuration, registry: InMemoryCuffRegistry([record]))
        let address = Self.address
        func pairs() async -> Int { await rig.central.calls.filter { $0 == "Pair \(address)" }.count }
        func failed(waiting wait: String) async throws {
            _ = try await rig.next { if case .problem(address, let text) = $0 { text.hasSuffix("after \(wait)") } else { false } }
        }

        await rig.settled()
        let adapter = await rig.central.adapter.address
        #expect(await rig.central.calls == ["StartDiscovery \(adapter)"])
        await rig.central.advertise(address)
        try await failed(waiting: "5.0 seconds")
        // The cuff advertises on, each time a change of the device bluetoothd shows: no other pairing.
        for _ in 0 ..< 3 {
            await rig.central.advertise(address)
            await rig.settled()
        }
        #expect(await pairs() == 1)
        // The wait over, the cuff still shown is paired again; that fails too, and the wait doubles.
        await rig.clock.sleepers(count: 1)
        rig.clock.advance(by: .seconds(5))
        try await failed(waiting: "10.0 seconds")
        #expect(await pairs() == 2)
        // Reachable again: after the wait the cuff is paired anew and read.
        await rig.central.change(address) { $0.reachable = true }
        await rig.clock.sleepers(count: 1)
        rig.clock.advance(by: .seconds(10))
        _ = try await rig.next { if case .recordsDownloaded(address, count: 2) = $0 { true } else { false } }
        #expect(await pairs() == 3)
        await rig.stop()
    }
}
