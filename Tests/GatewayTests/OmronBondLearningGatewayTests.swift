import BlueZ
import Gateway
import GATTHealth
import GatewayTestSupport
import Testing

/// An Omron HEM-7380T1, whose bond the sources disagree on (docs/omron.md §6, docs/reference/GATT-HEALTH.md §13.13),
/// in-process: cuffd keeps the bond; a cuff that keeps it too is read over it on every link and never paired again
/// (`omron-hem7380t1.json`); one that forgets it (`omron-hem7380t1-forgets-bond.json`) makes the first link after the
/// pairing fail with `AuthenticationFailed`, and cuffd learns to bond it anew on every link, as the HEM-7188T1.
@Suite("Gateway in-process: an Omron cuff whose bond cuffd learns", .timeLimit(.minutes(1)))
struct OmronBondLearningGatewayTests {
    static let keeping = BluetoothAddress("D0:3E:7D:73:80:01")!
    static let forgetting = BluetoothAddress("D0:3E:7D:73:80:02")!

    /// Waits for the download of `count` records from `address`.
    static func downloaded(_ count: Int, from address: BluetoothAddress, _ run: ScenarioRun) async throws {
        _ = try await run.rig.next { if case .recordsDownloaded(address, count) = $0 { true } else { false } }
    }

    @Test("A cuff that keeps its bond is read over it on several links, with no new pairing and discovery off once learned")
    func keptBond() async throws {
        try await ScenarioRun.afterExpectedReadings("omron-hem7380t1.json") { run in
            let address = Self.keeping
            let adapter = run.scenario.adapter.address
            try await Self.downloaded(4, from: address, run)
            try await Self.downloaded(5, from: address, run)
            // Two more links: the cuff drops each, wakes, and bluetoothd connects it over the bond (GattProfile1).
            let steps = run.scenario.cuffs[0].timeline
            for _ in 0 ..< 2 {
                for step in [steps[1], steps[3]] {
                    await run.central.perform(step.action, on: address)
                    await run.rig.settled()
                }
                try await Self.downloaded(5, from: address, run)
            }
            // pair's discovery and Pair; discovery on while cuffd learns; the first link over the bond ends it. No other call.
            #expect(await run.central.calls == [
                "StartDiscovery \(adapter)", "StopDiscovery \(adapter)", "Pair \(address)", "StartDiscovery \(adapter)", "StopDiscovery \(adapter)",
            ])
            #expect(await run.rig.registry.records()[address]?.bond == .kept)
            #expect(await run.rig.store.readings.count == 5)
            #expect(!run.rig.events.all.contains { if case .bondForgotten = $0 { true } else { false } })
            let status = try #require(await run.gateway.status(address))
            #expect(status.paired && !status.pairsAnewEachLink)
        }
    }

    @Test("A cuff that forgets its bond: the link over it fails, cuffd learns, pairs anew, stores each reading once, and remembers it after a restart")
    func forgottenBond() async throws {
        let address = Self.forgetting
        var learned: CuffRecord?
        try await ScenarioRun.afterExpectedReadings("omron-hem7380t1-forgets-bond.json") { run in
            let adapter = run.scenario.adapter.address
            try await Self.downloaded(4, from: address, run)
            _ = try await run.rig.next { if case .bondForgotten(address) = $0 { true } else { false } }
            try await Self.downloaded(5, from: address, run)
            // The link over the bond refused, the bond removed; the cuff, found again, paired anew.
            #expect(await run.central.calls == [
                "StartDiscovery \(adapter)", "StopDiscovery \(adapter)", "Pair \(address)", "StartDiscovery \(adapter)",
                "Connect \(address)", "RemoveDevice \(address)", "Pair \(address)",
            ])
            // From now on a link's end removes the bond, as for a HEM-7188T1; discovery stays on.
            await run.central.perform(run.scenario.cuffs[0].timeline[1].action, on: address)
            await run.rig.settled()
            #expect(await run.central.calls.last == "RemoveDevice \(address)")
            #expect(await run.central.holds(address).paired == false)
            #expect(await run.gateway.rememberedCuffs == [address])
            #expect(await run.gateway.status(address)?.pairsAnewEachLink == true)
            // Learned once, said once; each reading stored once.
            #expect(run.rig.events.all.filter { if case .bondForgotten = $0 { true } else { false } }.count == 1)
            ShippedScenarioGatewayTests.expectFailuresAndNoDuplicates(run.rig.events.all, run.scenario)
            #expect(await run.rig.store.readings.count == 5)
            learned = await run.rig.registry.records()[address]
            #expect(learned?.bond == .forgotten)
        }

        // cuffd restarted, the cuff unbonded: looked for from the start and paired anew when found; no link over a bond tried.
        let record = try #require(learned)
        let restarted = try await ScenarioRun.start("omron-hem7380t1-forgets-bond.json", registry: InMemoryCuffRegistry([record]))
        try await Self.downloaded(4, from: address, restarted)
        // The first calls; the link's end after the download may follow at once (OmronRebondGatewayTests.afterARestart).
        #expect(Array(await restarted.central.calls.prefix(2)) == ["StartDiscovery \(restarted.scenario.adapter.address)", "Pair \(address)"])
        #expect(await restarted.central.calls.allSatisfy { !$0.hasPrefix("Connect") })
        #expect(await restarted.rig.registry.records()[address]?.bond == .forgotten)
        await restarted.rig.stop()
    }

    @Test("forget drops what cuffd learned: paired again, the cuff's bond is learned anew")
    func forgetClearsTheLearnedBond() async throws {
        let run = try await ScenarioRun.start("omron-hem7380t1-forgets-bond.json")
        try await run.pairAll()
        await run.playTimelines()
        let address = Self.forgetting
        let adapter = run.scenario.adapter.address
        _ = try await run.rig.next { if case .bondForgotten(address) = $0 { true } else { false } }
        try await Self.downloaded(5, from: address, run)
        #expect(await run.rig.registry.records()[address]?.bond == .forgotten)

        try await run.gateway.forget(address)
        #expect(await run.rig.registry.records().isEmpty)
        #expect(await run.gateway.rememberedCuffs.isEmpty)
        // Paired again (its pairing link makes it advertise): nothing learned; discovery on again to learn.
        await run.central.perform(run.scenario.cuffs[0].timeline[3].action, on: address)
        let before = await run.central.calls.count
        try await run.pairAll()
        try await Self.downloaded(5, from: address, run)
        let record = try #require(await run.rig.registry.records()[address])
        #expect(record.bond == nil && record.identity?.model == "HEM-7380T1-EOSL")
        #expect(Array(await run.central.calls.dropFirst(before)) == [
            "StartDiscovery \(adapter)", "StopDiscovery \(adapter)", "Pair \(address)", "StartDiscovery \(adapter)",
        ])
        await run.rig.stop()
    }
}
