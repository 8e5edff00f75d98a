@testable import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Testing

/// The VM's Bumble radio (`Acceptance/acceptance/bond_memory.py`, docs/acceptance.md) and cuff-sim forget a cuff's bond
/// alike (`forgetsBondAfterLink`, docs/cuff-sim.md; the Omron HEM-7188T1, docs/reference/GATT-HEALTH.md §13.13): both read
/// the flag from the same scenario files, and after the cuff ends a bonded link, a link over the old key fails on both
/// for a cuff that forgets (and a fresh bond then links again on both), and succeeds on both for one that does not.
@Suite("The VM radio's cuff forgets its bond as cuff-sim's does")
struct BondMemoryRadioParityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Loads a scenario as the radio does (`scenario.load`) and plays its first cuff's bond memory over a key store that
    /// behaves as Bumble's `MemoryKeyStore`: a pairing stores the central's keys, the cuff ends the link, a link over the
    /// old keys (Bumble answers the LTK request from the store) — and when that is refused, a fresh pairing and a link
    /// over its keys.
    static let radio = """
        import asyncio, sys
        sys.path.insert(0, sys.argv[1])
        from acceptance import bond_memory, scenario
        bond_memory.emit = lambda *_, **__: None
        class KeyStore:
            def __init__(self): self.keys = {}
            async def get(self, name): return self.keys.get(name)
            async def update(self, name, keys): self.keys[name] = keys
            async def delete(self, name): self.keys.pop(name, None)
        async def play():
            cuff, store, central = scenario.load(sys.argv[2]).cuffs[0], KeyStore(), sys.argv[3]
            bonds = bond_memory.BondMemory(cuff.address, cuff.forgets_bond_after_link, store)
            await store.update(central, 'keys of the first pairing')
            await bonds.link_ended(central)
            if await store.get(central) is not None:
                print('linked')
                return
            print('refused')
            await store.update(central, 'keys of a fresh pairing')
            print('linked' if await store.get(central) is not None else 'refused')
        asyncio.run(play())
        """

    /// Prints the address and the flag of every cuff of a scenario as the radio loads it.
    static let flags = """
        import sys
        sys.path.insert(0, sys.argv[1])
        from acceptance import scenario
        for cuff in scenario.load(sys.argv[2]).cuffs:
            print(cuff.address, cuff.forgets_bond_after_link)
        """

    static let adapter = "00:1A:7D:DA:71:13"

    @Test("a link over the old key after the cuff ended a bonded link, then a fresh bond", arguments: [true, false])
    func linkAfterTheCuffEndedIt(_ forgets: Bool) async throws {
        try #require(ExternalCommand.exists("python3"))
        let text = ScenarioText.oneCuff(
            pairing: "justWorks", timeline: #"[{"after": 0.1, "disconnect": true}, {"after": 0.3, "advertise": true}]"#,
            extra: #""forgetsBondAfterLink": \#(forgets)"#)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bond-parity-\(UUID().uuidString.prefix(8)).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ExternalCommand.runDetached("python3", ["-c", Self.radio, Self.root.appendingPathComponent("Acceptance").path,
                                                                       file.path, Self.adapter])
        #expect(result.status == 0, "\(result.standardError)")
        let simulated = try await Self.cuffSim(text)
        #expect(simulated == (forgets ? ["refused", "linked"] : ["linked"]), "cuff-sim: \(simulated)")
        #expect(result.standardOutput.split(separator: "\n").map(String.init) == simulated, "the radio: \(result.standardOutput)")
    }

    @Test("every shipped scenario's cuffs forget their bond on both or on neither")
    func shippedFlags() async throws {
        try #require(ExternalCommand.exists("python3"))
        let folder = Self.root.appendingPathComponent("scenarios")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var forgetting = 0
        for name in names {
            let scenario = try Scenario.parse(Data(contentsOf: folder.appendingPathComponent(name)))
            let result = try await ExternalCommand.runDetached("python3", ["-c", Self.flags, Self.root.appendingPathComponent("Acceptance").path,
                                                                           folder.appendingPathComponent(name).path])
            #expect(result.status == 0, "\(name): \(result.standardError)")
            let expected = scenario.cuffs.map { "\($0.address) \($0.forgetsBondAfterLink ? "True" : "False")" }
            #expect(result.standardOutput.split(separator: "\n").map(String.init) == expected, "\(name)")
            forgetting += scenario.cuffs.filter(\.forgetsBondAfterLink).count
        }
        #expect(forgetting > 0, "no shipped scenario has a cuff that forgets its bond")
    }

    /// cuff-sim: `Pair`, indications on (the timeline: the cuff ends the link and advertises again), `Connect` over the
    /// bond bluetoothd kept; when that is refused, `RemoveDevice`, discovery and a fresh `Pair` (a cuff-sim cuff the host
    /// linked advertises only at its next `advertise` step). "linked" or "refused" for each.
    static func cuffSim(_ text: String) async throws -> [String] {
        var outcomes: [String] = []
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(text)
            teardown.add { await harness.stop() }
            _ = try await harness.pairUntilTheCuffEndsTheLink()
            try await harness.events.waitFor("\(EmulatorHarness.cuffName) advertising")
            outcomes.append(try await link { _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Connect") })
            guard outcomes == ["refused"] else { return }
            _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "RemoveDevice", [.objectPath(EmulatorHarness.device)])
            _ = try await harness.call(EmulatorHarness.adapter, "org.bluez.Adapter1", "StopDiscovery")
            try await harness.discover()
            outcomes.append(try await link { _ = try await harness.call(EmulatorHarness.device, "org.bluez.Device1", "Pair") })
        }
        return outcomes
    }

    /// "refused" when bluetoothd answers `AuthenticationFailed` (the cuff refused the key), "linked" when the call succeeds.
    static func link(_ call: () async throws -> Void) async throws -> String {
        do {
            try await call()
            return "linked"
        } catch let error as DBusError where error.name.rawValue == "org.bluez.Error.AuthenticationFailed" {
            return "refused"
        }
    }
}
