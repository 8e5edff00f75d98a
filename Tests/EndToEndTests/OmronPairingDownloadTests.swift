import DBusTestSupport
import Foundation
import Testing

/// `cuffctl pair` of an Omron cuff whose first download stops after the memory was unlocked (docs/cuffctl.md, exit 3;
/// docs/omron.md §6): paired all the same, and said so.
@Suite("cuffctl pair: an Omron cuff whose first download stops")
struct OmronPairingDownloadTests {
    static let cuff = "28:FF:B2:10:91:6E"

    @Test("Every read answer of one block with a bad check byte: pair warns that the download stopped after 0 records and exits 3; the cuff stays paired and trusted")
    func downloadStoppedIsReported() async throws {
        let stack = try await Stack.make(
            scenario: "omron-wrapped.json", edits: ["\"model\": \"HEM-7155T\",\n": "\"model\": \"HEM-7155T\", \"corruptReads\": 3,\n"])
        try await stack.startDaemon()
        let pair = try await stack.cuffctl(["pair", Self.cuff, "--timeout", "30"])
        #expect(pair.status == 3, "\(pair.error)")
        #expect(pair.error.hasPrefix("cuffctl: warning: \(Self.cuff) is paired and trusted, but the download of its stored readings stopped after 0 records: "), "\(pair.error)")
        #expect(pair.error.contains("bad checksum") && pair.error.contains("what was not read is read when the cuff next connects"), "\(pair.error)")
        #expect(pair.output.isEmpty, "no success line: \(pair.output)")

        let devices = try await stack.cuffctl(["devices", "--json"])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(devices.output.utf8)) as? [[String: Any]], "\(devices.error)")
        let cuff = try #require(listed.first { $0["address"] as? String == Self.cuff }, "\(devices.output)")
        #expect(cuff["paired"] as? Bool == true && cuff["trusted"] as? Bool == true, "\(cuff)")
        #expect(try await stack.readings().isEmpty)
    }
}
