@testable import cuffctl
import Testing

/// `cuffctl capture`'s options (docs/capture.md, "When it ends"): `--links` from 1 to 100, refused otherwise with
/// exit 64 before cuffd is asked anything; beside `--seconds` it is taken, the capture ending at whichever comes first.
@Suite("cuffctl capture: options")
struct CaptureCommandTests {
    static let cuff = "C4:F3:12:53:F2:C9"

    @Test(arguments: ["0", "101", "-1", "two"])
    func linksOutsideOneToAHundredExit64(_ links: String) async throws {
        let outcome = try await CuffctlProcess.run(["capture", Self.cuff, "--links", links])
        #expect(outcome.status == 64, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("--links"), "\(outcome.standardError)")
    }

    @Test func theBoundsSayWhatIsAllowed() async throws {
        let outcome = try await CuffctlProcess.run(["capture", Self.cuff, "--links", "101", "--seconds", "60"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError.contains("--links is from 1 to 100"), "\(outcome.standardError)")
    }

    @Test func linksAndSecondsAreTakenTogether() throws {
        let most = try CaptureCommand.parse([Self.cuff, "--links", "100"])
        #expect(most.links == 100 && most.seconds == nil)
        let both = try CaptureCommand.parse([Self.cuff, "--links", "1", "--seconds", "3600"])
        #expect(both.links == 1 && both.seconds == 3600)
    }
}
