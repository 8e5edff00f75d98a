@testable import cuffctl
import Testing

/// `cuffctl scan --until` (docs/cuffctl.md): each a cuff's address, refused otherwise with exit 64 before cuffd is asked
/// anything; repeatable, in either case.
@Suite("cuffctl scan: options")
struct ScanCommandTests {
    @Test(arguments: ["", "C4:F3:12:53:F2", "C4:F3:12:53:F2:C9:00", "C4-F3-12-53-F2-C9", "G4:F3:12:53:F2:C9", "C4:F3:12:53:F2:C"])
    func untilWhatIsNoAddressExits64(_ address: String) async throws {
        let outcome = try await CuffctlProcess.run(["scan", "--until", "C4:F3:12:53:F2:C9", "--until", address])
        #expect(outcome.status == 64, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("--until takes a cuff's address like C4:F3:12:53:F2:C9, not \"\(address)\""), "\(outcome.standardError)")
    }

    @Test func untilIsRepeatable() throws {
        let scan = try ScanCommand.parse(["--until", "c4:f3:12:53:f2:c9", "--until", "C4:F3:12:53:F2:CA", "--timeout", "60"])
        #expect(scan.until == ["c4:f3:12:53:f2:c9", "C4:F3:12:53:F2:CA"])
        #expect(scan.timeout == 60)
        #expect(try ScanCommand.parse([]).until.isEmpty)
    }
}
