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
        let (status, version) = try await offCooperativePool {
            let parser = Process()
            parser.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-parsechangelog")
            parser.arguments = ["-l", Self.changelog.path, "-S", "Version"]
            let pipe = Pipe()
            parser.standardOutput = pipe
            try parser.run()
            let version = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            parser.waitUntilExit()
            return (parser.terminationStatus, version)
        }
        #expect(status == 0)

        let outcome = try await CuffctlProcess.run(["--version"])
        #expect(outcome.status == 0)
        #expect(!version.isEmpty && outcome.standardOutput == version, "cuffctl says \(outcome.standardOutput), the changelog \(version)")
    }
}
