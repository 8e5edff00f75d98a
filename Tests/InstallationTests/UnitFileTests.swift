import Foundation
import DBusTestSupport
import FoundationXML
import Testing

/// The shipped service files, held to their hardening goals by systemd's own tools.
@Suite("Installation files", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
struct UnitFileTests {
    static let systemdDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd")

    /// `systemd-analyze ARGUMENTS`, run off the cooperative pool (a `verify` takes seconds; see `offCooperativePool`).
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await offCooperativePool { try runBlocking(arguments) }
    }

    private static func runBlocking(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ExternalCommand.run("/usr/bin/systemd-analyze", arguments)
        return (result.status, result.standardOutput + result.standardError)
    }

    /// Debian 12's timesyncd scores 2.3 and bluetooth.service 6.2; the goal is ≤ 1.0 for cuffd, and ≤ 1.5 for
    /// cuff-forward, which needs the network (PrivateNetwork=, IP address families and no IP allow list cost 1.0).
    @Test(arguments: [("cuffd.service", 1.0), ("cuff-forward.service", 1.5)])
    func exposureIsLow(unitName: String, goal: Double) async throws {
        let unit = Self.systemdDirectory.appendingPathComponent(unitName).path
        let (status, output) = try await Self.run(["security", "--offline=true", "--no-pager", unit])
        #expect(status == 0, "\(output)")
        let line = try #require(output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: " ").compactMap { Double($0) }.first)
        #expect(score <= goal, "\(line)")
    }

    /// `systemd-analyze verify` in a scratch root holding this machine's system units and the binary the
    /// unit starts.
    @Test(arguments: [("cuffd.service", "cuffd"), ("cuff-forward.service", "cuff-forward")])
    func verifiesClean(unitName: String, binary: String) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cuffd-verify-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let units = root.appendingPathComponent("etc/systemd/system")
        let libexec = root.appendingPathComponent("usr/libexec")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: libexec, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("usr/lib/systemd"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "/lib/systemd/system"),
                                         to: root.appendingPathComponent("usr/lib/systemd/system"))
        _ = FileManager.default.createFile(atPath: libexec.appendingPathComponent(binary).path, contents: Data("#!/bin/sh\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        try FileManager.default.copyItem(at: Self.systemdDirectory.appendingPathComponent(unitName),
                                         to: units.appendingPathComponent(unitName))
        let (status, output) = try await Self.run(["verify", "--man=no", "--root=\(root.path)", units.appendingPathComponent(unitName).path])
        let complaints = output.split(separator: "\n").filter { $0.contains(unitName) }
        #expect(status == 0, "\(output)")
        #expect(complaints.isEmpty, "\(complaints)")
    }

    @Test func theBusPolicyParses() throws {
        let policy = Self.systemdDirectory.appendingPathComponent("org.cuffd.Gateway1.conf")
        let document = try XMLDocument(contentsOf: policy)
        let owners = try document.nodes(forXPath: "//policy[@user='cuffd']/allow/@own").compactMap { $0.stringValue }
        #expect(owners == ["org.cuffd.Gateway1"])
        let denied = try document.nodes(forXPath: "//policy[@context='default']/deny/@send_destination").compactMap { $0.stringValue }
        #expect(denied == ["org.cuffd.Gateway1"])
    }
}
