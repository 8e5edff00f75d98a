import DBusTestSupport
import Foundation
import Testing

/// The shipped bus policy (systemd/org.cuffd.Gateway1.conf), on a bus that behaves like the system bus:
/// method calls denied by default. The file is read at test time with its user and group names replaced by
/// throw-away ones, so what is tested is what is installed. Creating users and groups needs root.
@Suite("The shipped bus policy and cuffd's own checks", .serialized, .enabled(if: getuid() == 0, "creates throw-away users and groups, which needs root"))
struct PolicyTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd/org.cuffd.Gateway1.conf")

    /// The system bus's defaults (dbus `bus/system.conf.in`): deny calls and owning names unless allowed;
    /// root may own names (cuff-sim stands in for root's bluetoothd, cuffd runs as root here).
    static let systemLike = """
        <policy context="default">
          <allow user="*"/>
          <deny own="*"/>
          <deny send_type="method_call"/>
          <allow send_type="signal"/>
          <allow send_requested_reply="true" send_type="method_return"/>
          <allow send_requested_reply="true" send_type="error"/>
          <allow receive_type="method_call"/>
          <allow receive_type="method_return"/>
          <allow receive_type="error"/>
          <allow receive_type="signal"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
          <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
        </policy>
        <policy user="root"><allow own="*"/><allow send_type="method_call"/></policy>
        """

    struct Accounts {
        let reader: (uid: UInt32, gid: UInt32, groups: [UInt32])
        let outsider: (uid: UInt32, gid: UInt32, groups: [UInt32])
        let readerGroup: String, adminGroup: String
    }

    static func run(_ command: String) throws {
        let result = try ExternalCommand.run("/bin/sh", ["-c", command])
        guard result.status == 0 else { throw TestFailure("`\(command)` exited \(result.status): \(result.standardError)") }
    }

    static func id(_ flag: String, _ name: String) throws -> UInt32 {
        let result = try ExternalCommand.run("/usr/bin/id", [flag, name])
        guard let value = UInt32(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw TestFailure("no id for \(name)") }
        return value
    }

    /// A reader (member of the reader group) and an outsider, removed again by `cleanUp`.
    static func makeAccounts() throws -> Accounts {
        let tag = String(UUID().uuidString.prefix(6)).lowercased()
        let readerGroup = "cr\(tag)", adminGroup = "ca\(tag)", reader = "ur\(tag)", outsider = "uo\(tag)"
        try run("groupadd \(readerGroup) && groupadd \(adminGroup) && useradd -M -N -g \(readerGroup) \(reader) && useradd -M -N -g nogroup \(outsider)")
        let readerGID = try id("-g", reader)
        return Accounts(
            reader: (try id("-u", reader), readerGID, [readerGID]), outsider: (try id("-u", outsider), try id("-g", outsider), []),
            readerGroup: readerGroup, adminGroup: adminGroup)
    }

    static func cleanUp(_ accounts: Accounts) {
        _ = try? run("userdel ur\(accounts.readerGroup.dropFirst(2)); userdel uo\(accounts.readerGroup.dropFirst(2)); groupdel \(accounts.readerGroup); groupdel \(accounts.adminGroup)")
    }

    /// The shipped file's policies with the test's names: cuffd's user is root here.
    static func policy(_ accounts: Accounts) throws -> String {
        let text = try String(contentsOf: shipped, encoding: .utf8)
        let body = text[text.range(of: "<busconfig>")!.upperBound ..< text.range(of: "</busconfig>")!.lowerBound]
        return systemLike + body
            .replacingOccurrences(of: "user=\"cuffd\"", with: "user=\"root\"")
            .replacingOccurrences(of: "group=\"cuffd-admin\"", with: "group=\"\(accounts.adminGroup)\"")
            .replacingOccurrences(of: "group=\"cuffd\"", with: "group=\"\(accounts.readerGroup)\"")
    }

    @Test("An unprivileged uid is denied by the bus; a reader reads only what a grant allows; root grants")
    func policyAndGrants() async throws {
        let accounts = try await offCooperativePool { try Self.makeAccounts() }
        defer { Thread { Self.cleanUp(accounts) }.start() }
        let stack = try await Stack.make(
            scenario: "passkey.json", policy: try Self.policy(accounts),
            daemonArguments: ["--admin-group", accounts.adminGroup, "--reader-group", accounts.readerGroup], manualStart: true)
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", "D0:5F:B8:4A:21:07", "--passkey", "123456"]).status == 0)
        // A reader without a grant learns from Start that a reading was stored, and nothing of it.
        let blind = try await stack.measure("D0:5F:B8:4A:21:07", ["--timeout", "30", "--json"], as: accounts.reader)
        #expect(blind.status == 0, "\(blind.error)")
        #expect(blind.output.hasSuffix("\n{}\n"), "\(blind.output)")
        #expect(!blind.output.contains("syncIdentifier") && !blind.output.contains("systolic"), "\(blind.output)")

        let outsider = try await stack.cuffctl(["readings", "--json"], as: accounts.outsider)
        #expect(outsider.status == 77, "\(outsider.error)")
        #expect(outsider.error.contains("permission denied"))
        // export reads with the caller's rights: the same refusal, and nothing left where its file was to be.
        let drop = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("cuffd-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: drop, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: drop) }
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: drop.path)
        let export = try await stack.cuffctl(["export", "--format", "fhir", "--output", drop.appendingPathComponent("x.json").path], as: accounts.outsider)
        #expect(export.status == 77 && export.error.hasPrefix("cuffctl: permission denied: "), "\(export.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: drop.path).isEmpty)

        // The reader may ask, but without a grant sees only what it stored itself: nothing.
        #expect(try await stack.readings(as: accounts.reader).isEmpty)
        let forbidden = try await stack.cuffctl(["pair", "D0:5F:B8:4A:21:07"], as: accounts.reader)
        #expect(forbidden.status == 77, "\(forbidden.error)")
        let selfGrant = try await stack.cuffctl(["grant", "\(accounts.reader.uid)", "bloodPressure", "read"], as: accounts.reader)
        #expect(selfGrant.status == 77, "\(selfGrant.error)")

        #expect(try await stack.cuffctl(["grant", "\(accounts.reader.uid)", "bloodPressure", "read"]).status == 0)
        let visible = try await stack.readings(as: accounts.reader)
        #expect(visible.map { $0["systolic"] as? Double } == [118])
        let permissions = try await stack.cuffctl(["permissions"], as: accounts.reader)
        #expect(permissions.output.contains("bloodPressureSystolic\tread"))

        #expect(try await stack.cuffctl(["revoke", "\(accounts.reader.uid)", "bloodPressure"]).status == 0)
        #expect(try await stack.readings(as: accounts.reader).isEmpty)
    }
}
