import DBusTestSupport
import Foundation
import Testing

/// `cuffctl report` looked at as a person would (docs/report.md): Debian's chromium renders the page headless,
/// takes a screenshot, logs no console message, and draws one point per reading.
@Suite("cuffctl report in a real browser", .serialized)
struct ReportBrowserTests {
    /// Runs headless chromium with `arguments` on `page`; its standard output and error.
    static func chromium(_ arguments: [String], _ page: URL) async throws -> (output: String, error: String) {
        let result = try await ExternalCommand.runDetached(
            "/usr/bin/chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0"] + arguments + [page.absoluteString])
        return (result.standardOutput, result.standardError)
    }

    @Test("A month of readings: rendered without a console message, one point per reading, a screenshot taken")
    func rendered() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        let scenario = try HostileArgumentTests.manyRecords(1300, in: stack.directory)
        #expect(try await HostileArgumentTests.replay(scenario, into: stack) == 0)
        try await stack.startDaemon()
        let page = stack.directory.appendingPathComponent("report.html")
        let report = try await stack.cuffctl(["report", "--since", "2026-11-24", "--until", "2026-12-24", "--output", page.path])
        #expect(report.status == 0, "\(report.error)")
        let count = try await stack.readings().count
        #expect(count == 1300)

        let dom = try await Self.chromium(["--dump-dom"], page)
        #expect(dom.output.components(separatedBy: "class=\"reading-sys ").count - 1 == count)
        #expect(dom.output.components(separatedBy: "class=\"reading-dia ").count - 1 == count)
        #expect(!dom.error.contains(":CONSOLE"), "\(dom.error)")
        for element in ["<script", "<img", "<link", "<iframe"] { #expect(!dom.output.contains(element)) }

        let screenshot = stack.directory.appendingPathComponent("report.png")
        _ = try await Self.chromium(["--screenshot=\(screenshot.path)", "--window-size=1240,1754"], page)
        let png = try Data(contentsOf: screenshot)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 20_000, "\(png.count) bytes: an empty page?")

        let empty = try await stack.cuffctl(["report", "--since", "2020-01-01", "--until", "2020-02-01"])
        #expect(empty.status == 0)
        #expect(empty.output.contains("No readings were stored in this period."))
        let backwards = try await stack.cuffctl(["report", "--since", "2027-01-01", "--until", "2026-01-01"])
        #expect(backwards.status == 64)
    }
}
