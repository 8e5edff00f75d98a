import BlueZ
import Gateway
import GatewayTestSupport
import Testing

/// When `CuffGateway.scan` ends with cuffs to wait for (`cuffctl scan --until`, docs/cuffctl.md): as soon as each of
/// them is listed, or at its duration. In virtual time: a scan that ends while the clock stands still ended on its cuffs.
@Suite("Scan: until the cuffs named are seen", .timeLimit(.minutes(1)))
struct ScanEndTests {
    static let first = BluetoothAddress("C4:F3:12:53:F2:C9")!
    static let second = BluetoothAddress("C4:F3:12:53:F2:CA")!

    /// two-cuffs.json, its second cuff silent until the test makes it advertise, and a scan for 60 s until both are
    /// seen, returned once the scan waits (its bound sleeps on the clock).
    static func scanningForBoth() async throws -> (ScenarioRun, Task<[ScannedCuff], any Error>) {
        let run = try await ScenarioRun.start("two-cuffs.json")
        await run.central.change(Self.second) { $0.reachable = false }
        let idle = run.rig.clock.sleeperCount
        let scanning = Task { try await run.gateway.scan(for: .seconds(60), until: [Self.first, Self.second]) }
        await run.rig.clock.sleepers(count: idle + 1)
        return (run, scanning)
    }

    /// What the scan lists once it ends. A test whose time runs out cancels it: the scan then ends, and the test fails
    /// on its time rather than hanging.
    static func listing(_ scanning: Task<[ScannedCuff], any Error>) async throws -> [ScannedCuff] {
        try await withTaskCancellationHandler { try await scanning.value } onCancel: { scanning.cancel() }
    }

    @Test("The scan ends once the last cuff named appears, the clock standing still; a cuff bluetoothd holds counts at once")
    func endsWhenTheCuffsAppear() async throws {
        let (run, scanning) = try await Self.scanningForBoth()
        let start = run.rig.clock.now
        #expect(await run.central.calls == ["StartDiscovery \(run.scenario.adapter.address)"])
        await run.central.advertise(Self.second)
        let found = try await Self.listing(scanning)
        #expect(Set(found.map(\.device.id.address)) == [Self.first, Self.second])
        #expect(run.rig.clock.now == start)
        #expect(await run.central.calls.last == "StopDiscovery \(run.scenario.adapter.address)")

        let again = try await run.gateway.scan(for: .seconds(60), until: [Self.second])
        #expect(again.contains { $0.device.id.address == Self.second })
        #expect(run.rig.clock.now == start)
        await run.rig.stop()
    }

    @Test("A cuff named that never appears: the scan ends at its duration with what it saw")
    func endsAtTheDuration() async throws {
        let (run, scanning) = try await Self.scanningForBoth()
        let start = run.rig.clock.now
        await run.rig.clock.advanceWhenSleeping(for: .seconds(60))
        let found = try await Self.listing(scanning)
        #expect(found.map(\.device.id.address) == [Self.first])
        #expect(start.duration(to: run.rig.clock.now) == .seconds(60))
        #expect(await run.central.calls.last == "StopDiscovery \(run.scenario.adapter.address)")
        await run.rig.stop()
    }
}
