import DBusTestSupport
import Foundation
import Testing

/// One version in the repository: the first entry of debian/changelog (Plugins/ReleaseVersion), read here by
/// dpkg's own parser, is what `cuffctl --version` reports.
@Suite("Version", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-parsechangelog")))
struct VersionTests {
    static let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("debian/changelog")

    @Test func cuffctlReportsTheChangelogsVersion() async throws {
        let parsed = try await ExternalCommand.runDetached("/usr/bin/dpkg-parsechangelog", ["-l", Self.changelog.path, "-S", "Version"])
        #expect(parsed.status == 0, "\(parsed.standardError)")
        let version = parsed.standardOutput

        let outcome = try await CuffctlProcess.run(["--version"])
        #expect(outcome.status == 0)
        #expect(!version.isEmpty && outcome.standardOutput == version, "cuffctl says \(outcome.standardOutput), the changelog \(version)")
    }
}
