import Foundation
import Testing

/// An Omron model cuffd refuses by name (docs/compatibility.md, docs/reference/GATT-HEALTH.md §13.13), over cuffd and
/// cuff-sim: `cuffctl scan` says "not supported" and why before anyone pairs, and `cuffctl pair` refuses with exit 76,
/// naming the model, whether its advertised name or only its Model Number String names it.
@Suite("Omron models refused by name", .serialized)
struct OmronRefusalTests {
    static let address = "28:FF:B2:10:71:42"

    @Test("A HEM-7196T1 advertising its code: scan says not supported and why; pair exits 76 naming it, and cuffd keeps nothing")
    func byItsAdvertisedName() async throws {
        let stack = try await Stack.make(scenario: "omron-fe4a.json", edits: ["\"name\": \"BLESmart_00007142\"": "\"name\": \"HEM-7196T1-FLE\""])
        try await stack.startDaemon()
        let scan = try await stack.cuffctl(["scan", "--until", Self.address, "--timeout", "60"])
        #expect(scan.status == 0, "\(scan.error)")
        let lines = scan.output.split(separator: "\n").map(String.init)
        let device = try #require(lines.firstIndex { $0.hasPrefix(Self.address + " ") }, "\(scan.output)")
        #expect(lines[device + 1].hasPrefix("  Omron HEM-7196T1: not supported: hass-omron's map of its memory"), "\(scan.output)")
        let refused = try await stack.cuffctl(["pair", Self.address, "--timeout", "30"])
        #expect(refused.status == 76, "\(refused.error)")
        #expect(refused.error.contains("the Omron HEM-7196T1 is not supported: "), "\(refused.error)")
        let devices = try await stack.cuffctl(["devices", "--json"])
        #expect(devices.status == 0 && !devices.output.contains(Self.address), "\(devices.output)")
        #expect(try await stack.stopDaemon() == 0)
    }

    @Test("A BLESmart cuff whose Model Number String is HEM-7380T1-EOSL: pair exits 76 naming the HEM-7380T1 and why, bond removed")
    func byItsModelNumber() async throws {
        let stack = try await Stack.make(scenario: "omron-fe4a.json", edits: ["\"model\": \"HEM-7142T2-Z\"": "\"model\": \"HEM-7380T1-EOSL\""])
        try await stack.startDaemon()
        let refused = try await stack.cuffctl(["pair", Self.address, "--timeout", "30"])
        #expect(refused.status == 76, "\(refused.error)")
        #expect(refused.error.contains("the Omron HEM-7380T1 is not supported: "), "\(refused.error)")
        #expect(refused.error.contains("bonds anew on every link"), "\(refused.error)")
        try await stack.wait(for: "removed by RemoveDevice; bond forgotten", in: "cuff-sim.log")
        #expect(!stack.text("cuff-sim.log").contains("Omron token unlock written"))
        #expect(try await stack.stopDaemon() == 0)
    }
}
