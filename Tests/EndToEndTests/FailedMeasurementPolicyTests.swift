import DBusTestSupport
import Foundation
import Testing

/// What `Start` tells a reader when the cuff reports a failed measurement (docs/dbus-api.md, "Who may call"): the reason
/// names the values the cuff sent, so only a reader who may read readings learns it. Needs root, as ``PolicyTests``.
@Suite(
    "Start's failed measurement over the bus, by the caller's grants", .serialized,
    .enabled(if: getuid() == 0, "creates throw-away users and groups, which needs root"))
struct FailedMeasurementPolicyTests {
    static let cuff = "D0:5F:B8:4A:21:07"
    /// passkey.json's reading, its diastolic made 0xF800 (SFLOAT −204.8): a frame no cuff measured.
    static let implausible = ["16 76 00 4C 00 5A 00 EA 07 0B 17 07 0F 00 42 00 00 00": "16 76 00 00 F8 5A 00 EA 07 0B 17 07 0F 00 42 00 00 00"]

    @Test("Two readers start a session on a measurement that fails: the one granted bloodPressure read learns why, the other only that it failed")
    func reasonOnlyForAGrantedReader() async throws {
        let accounts = try await offCooperativePool { try PolicyTests.makeAccounts() }
        let granted = try await offCooperativePool { try Self.secondReader(accounts) }
        defer {
            Thread {
                _ = try? PolicyTests.run("userdel \(granted.name)")
                PolicyTests.cleanUp(accounts)
            }.start()
        }
        let stack = try await Stack.make(
            scenario: "passkey.json", edits: Self.implausible, policy: try PolicyTests.policy(accounts),
            daemonArguments: ["--admin-group", accounts.adminGroup, "--reader-group", accounts.readerGroup], manualStart: true)
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", Self.cuff, "--passkey", "123456"]).status == 0)
        #expect(try await stack.cuffctl(["grant", "\(granted.account.uid)", "bloodPressure", "read"]).status == 0)

        async let blindStart = stack.cuffctl(["start", Self.cuff, "--timeout", "30"], as: accounts.reader)
        async let grantedStart = stack.cuffctl(["start", Self.cuff, "--timeout", "30"], as: granted.account)
        // START once both sessions are armed: the failed measurement ends both.
        try await stack.pressStart(Self.cuff, whenArmed: 2)
        let (blind, seeing) = try await (blindStart, grantedStart)

        #expect(blind.status == 65, "\(blind.error)")
        #expect(blind.error == "cuffctl: org.cuffd.Error.MeasurementFailed: the cuff reported a failed measurement\n", "\(blind.error)")
        #expect(seeing.status == 65, "\(seeing.error)")
        #expect(seeing.error.contains("the cuff \(Self.cuff) reported a failed measurement (implausible: diastolic -204.8 mmHg outside 10–300 mmHg)"), "\(seeing.error)")
    }

    /// A second member of the reader group, removed by the caller.
    static func secondReader(_ accounts: PolicyTests.Accounts) throws -> (name: String, account: Stack.Account) {
        let name = "ug" + accounts.readerGroup.dropFirst(2)
        try PolicyTests.run("useradd -M -N -g \(accounts.readerGroup) \(name)")
        let gid = try PolicyTests.id("-g", name)
        return (name, (try PolicyTests.id("-u", name), gid, [gid]))
    }
}
