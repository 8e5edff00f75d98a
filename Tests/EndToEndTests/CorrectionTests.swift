import DBusTestSupport
import Foundation
import Testing

/// Correcting the record through cuffd, with the shipped bus policy and throw-away users as in ``PolicyTests``
/// (docs/cuffctl.md, "Correcting readings").
@Suite("Correcting readings: who may, and what it changes", .serialized, .enabled(if: getuid() == 0, "creates throw-away users and groups, which needs root"))
struct CorrectionTests {
    static let cuff = "E8:2A:44:10:3C:5D"

    /// The shipped policy, cuffd and the cuff of stored-records.json paired: its three stored records are stored.
    static func paired(_ accounts: PolicyTests.Accounts) async throws -> Stack {
        let stack = try await Stack.make(
            scenario: "stored-records.json", policy: try PolicyTests.policy(accounts),
            daemonArguments: ["--admin-group", accounts.adminGroup, "--reader-group", accounts.readerGroup])
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", Self.cuff]).status == 0)
        return stack
    }

    static func identifiers(_ readings: [[String: Any]]) -> [String] { readings.compactMap { $0["syncIdentifier"] as? String } }

    @Test("delete: refused without share access (77) and for an unknown reading (68), nothing changed; a reader with read,share deletes; the cuff sending it again from its memory does not bring it back")
    func delete() async throws {
        let accounts = try await offCooperativePool { try PolicyTests.makeAccounts() }
        defer { Thread { PolicyTests.cleanUp(accounts) }.start() }
        let stack = try await Self.paired(accounts)
        let stored = Self.identifiers(try await stack.readings())
        #expect(stored.count == 3)
        let oldest = try #require(stored.first)

        let outsider = try await stack.cuffctl(["delete", oldest], as: accounts.outsider)
        #expect(outsider.status == 77, "\(outsider.error)")
        #expect(try await stack.cuffctl(["grant", "\(accounts.reader.uid)", "bloodPressure", "read"]).status == 0)
        let readOnly = try await stack.cuffctl(["delete", oldest], as: accounts.reader)
        #expect(readOnly.status == 77 && readOnly.error.hasPrefix("cuffctl: permission denied: "), "\(readOnly.error)")
        let unknown = try await stack.cuffctl(["delete", oldest, "no-such-reading"])
        #expect(unknown.status == 68 && unknown.error.contains("no-such-reading"), "\(unknown.error)")
        #expect(Self.identifiers(try await stack.readings()) == stored)

        #expect(try await stack.cuffctl(["grant", "\(accounts.reader.uid)", "bloodPressure", "read,share"]).status == 0)
        let deleted = try await stack.cuffctl(["delete", oldest], as: accounts.reader)
        #expect(deleted.status == 0 && deleted.output == "deleted 1 reading\n", "\(deleted.error)")
        #expect(Self.identifiers(try await stack.readings()) == Array(stored.dropFirst()))
        #expect(stack.journalEntries().contains { $0["MESSAGE"] == "uid \(accounts.reader.uid) deleted the readings \(oldest)" })
        let stats = try await stack.cuffctl(["stats", "--json"])
        let counts = try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]]
        #expect(counts?["systolic"]?["count"] as? Int == 2, "\(stats.output)")
        // Deleted already: unknown now.
        #expect(try await stack.cuffctl(["delete", oldest]).status == 68)

        // The cuff connects again for a measurement and sends its three stored records with the new one: the deleted
        // record is not stored again.
        #expect(try await stack.cuffctl(["start", Self.cuff, "--timeout", "30"]).status == 0)
        let after = Self.identifiers(try await stack.readings())
        #expect(after.count == 3 && !after.contains(oldest) && Array(after.prefix(2)) == Array(stored.dropFirst()), "\(after)")
    }
}
