import DBusTestSupport
import Foundation
import Testing

/// Read grants of named people (`cuffctl grant UID bloodPressure read --person NAME`, docs/dbus-api.md "Grants") as a
/// real second uid on a private bus with the shipped bus policy (``PolicyTests``): the uid reads that person's
/// readings and heart-rate values and nothing of anyone else's, in every read path — `Readings`, `ReadingColumns`,
/// `Changes`, `ChangeColumns`, `Statistics`, `HeartRates`, `Start`'s reply, and so `export` and `report`.
@Suite("Read grants of named people, as a second uid", .serialized, .enabled(if: getuid() == 0, "creates throw-away users and groups, which needs root"))
struct PersonGrantPolicyTests {
    /// The family cuff: its stored record is user 0's (alice, 140/90, pulse 75), the measurement after it user 1's
    /// (bob, 112/70, pulse 62).
    static let cuff = "A4:C1:38:5E:77:02"
    static let people = "[Cuff \(cuff)]\nUser0=alice\nUser1=bob\n"

    static func stack(_ scenario: String, configuration: String, _ accounts: PolicyTests.Accounts) async throws -> Stack {
        let stack = try await Stack.make(
            scenario: scenario, policy: try PolicyTests.policy(accounts), configuration: configuration,
            daemonArguments: ["--admin-group", accounts.adminGroup, "--reader-group", accounts.readerGroup], manualStart: true)
        try await stack.startDaemon()
        return stack
    }

    @Test("A uid granted alice's readings reads hers alone through every method; grants of people add up and are revoked one by one")
    func readingsOfOnePerson() async throws {
        let accounts = try await offCooperativePool { try PolicyTests.makeAccounts() }
        defer { Thread { PolicyTests.cleanUp(accounts) }.start() }
        let stack = try await Self.stack("two-users.json", configuration: Self.people, accounts)
        let reader = accounts.reader, uid = "\(accounts.reader.uid)"
        #expect(try await stack.cuffctl(["pair", Self.cuff]).status == 0)
        let refused = try await stack.cuffctl(["grant", uid, "bloodPressure", "read", "--person", "alice"], as: reader)
        #expect(refused.status == 77, "\(refused.error)")
        let granted = try await stack.cuffctl(["grant", uid, "bloodPressure", "read", "--person", "alice"])
        #expect(granted.status == 0, "\(granted.error)")
        let permissions = try await stack.cuffctl(["permissions"], as: reader)
        #expect(permissions.output.contains("bloodPressureSystolic\tread\talice\n"), "\(permissions.output)")

        // Bob measures while alice's reader waits: the reply says that a reading was stored, nothing of it.
        let start = try await stack.measure(Self.cuff, ["--timeout", "30", "--json"], as: reader)
        #expect(start.status == 0, "\(start.error)")
        #expect(start.output.hasSuffix("\n{}\n"), "\(start.output)")
        #expect(try await stack.readings().compactMap { $0["systolic"] as? Double }.sorted() == [112, 140])

        // ReadingColumns (readings), Readings, Changes and ChangeColumns: alice's reading only.
        let readings = try await stack.readings(as: reader)
        #expect(readings.map { $0["systolic"] as? Double } == [140] && readings.map { $0["person"] as? String } == ["alice"])
        #expect(try await stack.call("Readings", as: reader).map(\.systolic) == [140])
        #expect(try await stack.call("Changes", as: reader).map(\.systolic) == [140])
        #expect(try await stack.call("ChangeColumns", as: reader).map(\.systolic) == [140])
        #expect(try await stack.call("Changes").map(\.systolic).sorted() == [112, 140])

        // Statistics: her one reading's values, not bob's.
        let stats = try await stack.cuffctl(["stats", "--json"], as: reader)
        let figures = try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]]
        #expect(figures?["systolic"]?["count"] as? Int == 1 && figures?["systolic"]?["average"] as? Double == 140, "\(stats.output)")
        #expect(figures?["pulse"]?["count"] as? Int == 1 && figures?["pulse"]?["average"] as? Double == 75, "\(stats.output)")

        // export and report read through the same methods.
        let csv = try await stack.cuffctl(["export", "--format", "csv"], as: reader)
        #expect(csv.status == 0 && csv.output.split(separator: "\n").filter { $0.contains("alice") }.count == 1, "\(csv.error)\n\(csv.output)")
        #expect(!csv.output.contains("bob") && !csv.output.contains(",112,"), "\(csv.output)")
        let report = try await stack.cuffctl(["report", "--since", "520w"], as: reader)
        #expect(report.status == 0 && report.output.contains("<td>140/90</td>") && !report.output.contains("112/70"), "\(report.error)")

        // A second person adds up; revoking one leaves the other.
        #expect(try await stack.cuffctl(["grant", uid, "bloodPressure", "read", "--person", "bob"]).status == 0)
        #expect(try await stack.readings(as: reader).compactMap { $0["systolic"] as? Double }.sorted() == [112, 140])
        #expect(try await stack.cuffctl(["permissions"], as: reader).output.contains("bloodPressureSystolic\tread\talice, bob\n"))
        #expect(try await stack.cuffctl(["revoke", uid, "bloodPressure", "--person", "alice"]).status == 0)
        #expect(try await stack.readings(as: reader).map { $0["systolic"] as? Double } == [112])
        let nobody = try await stack.cuffctl(["revoke", uid, "bloodPressure", "--person", "bob"])
        #expect(nobody.status == 0, "\(nobody.error)")
        #expect(try await stack.readings(as: reader).isEmpty)
        // A grant without --person is everyone's, as before.
        #expect(try await stack.cuffctl(["grant", uid, "bloodPressure", "read"]).status == 0)
        #expect(try await stack.readings(as: reader).count == 2)
        #expect(try await stack.cuffctl(["permissions"], as: reader).output.contains("bloodPressureSystolic\tread\n"))
        let bad = try await stack.cuffctl(["grant", uid, "bloodPressure", "share", "--person", "bob"])
        #expect(bad.status == 64 && bad.error.contains("read grant"), "\(bad.status) \(bad.error)")
        let notNamed = try await stack.cuffctl(["revoke", uid, "bloodPressure", "--person", "bob"])
        #expect(notNamed.status == 64 && notNamed.error.contains("Revoke ends that grant"), "\(notNamed.status) \(notNamed.error)")
        #expect(try await stack.readings(as: reader).count == 2)
    }

    @Test("History: a uid granted alice's readings reads the history of hers, and of bob's nothing — as for a reading that does not exist (68)")
    func historyOfOnePerson() async throws {
        let accounts = try await offCooperativePool { try PolicyTests.makeAccounts() }
        defer { Thread { PolicyTests.cleanUp(accounts) }.start() }
        let stack = try await Self.stack("two-users.json", configuration: Self.people, accounts)
        let reader = accounts.reader, uid = "\(accounts.reader.uid)"
        #expect(try await stack.cuffctl(["pair", Self.cuff]).status == 0)
        #expect(try await stack.measure(Self.cuff, ["--timeout", "30", "--json"]).status == 0)
        let readings = try await stack.readings()
        func identifier(of person: String) throws -> String {
            try #require(readings.first { $0["person"] as? String == person }?["syncIdentifier"] as? String, "\(readings)")
        }
        let alices = try identifier(of: "alice"), bobs = try identifier(of: "bob")
        // Each reading annotated once by root: each has a history to read.
        for id in [alices, bobs] { #expect(try await stack.cuffctl(["annotate", id, "--note", "checked"]).status == 0) }
        #expect(try await stack.cuffctl(["grant", uid, "bloodPressure", "read", "--person", "alice"]).status == 0)

        let hers = try await stack.cuffctl(["history", alices, "--json"], as: reader)
        let changes = try JSONSerialization.jsonObject(with: Data(hers.output.utf8)) as? [[String: Any]]
        #expect(hers.status == 0 && changes?.map { $0["action"] as? String } == ["annotated"], "\(hers.output) \(hers.error)")
        #expect(changes?.first?["uid"] as? Int == 0 && changes?.first?["changed"] as? [String] == ["Note"], "\(hers.output)")
        let his = try await stack.cuffctl(["history", bobs], as: reader)
        let unknown = try await stack.cuffctl(["history", "no-such-reading"], as: reader)
        #expect(his.status == 68 && his.output.isEmpty, "\(his.status) \(his.output) \(his.error)")
        // Refused in the same words as a reading that never existed, so the refusal tells nothing of bob's.
        #expect(unknown.status == 68 && his.error == unknown.error.replacingOccurrences(of: "no-such-reading", with: bobs), "\(his.error) | \(unknown.error)")
        // Bob's reading moved to alice: the move is hers to read, what was done while it was bob's is not.
        #expect(try await stack.cuffctl(["annotate", bobs, "--person", "alice"]).status == 0)
        let moved = try await stack.cuffctl(["history", bobs, "--json"], as: reader)
        let movedChanges = try JSONSerialization.jsonObject(with: Data(moved.output.utf8)) as? [[String: Any]]
        #expect(moved.status == 0 && movedChanges?.map { $0["changed"] as? [String] } == [["PersonIdentifier"]], "\(moved.output) \(moved.error)")
        let all = try await stack.cuffctl(["history", bobs, "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(all.output.utf8)) as? [[String: Any]])?.count == 2, "root reads both: \(all.output)")
    }

    @Test("A uid granted one person's heart rate reads that person's sensor values alone, and their statistics")
    func heartRatesOfOnePerson() async throws {
        let accounts = try await offCooperativePool { try PolicyTests.makeAccounts() }
        defer { Thread { PolicyTests.cleanUp(accounts) }.start() }
        let strap = HeartRateTests.strap
        let stack = try await Self.stack("strap.json", configuration: "[Cuff \(strap)]\nNoUser=alice\n", accounts)
        let reader = accounts.reader, uid = "\(accounts.reader.uid)"
        #expect(try await stack.cuffctl(["pair", strap]).status == 0)
        try await stack.journal.received.wait(for: "a heart-rate summary") { _ in HeartRateTests.summarized(stack) > 0 ? () : nil }
        let all = try await stack.heartRates()
        let counted = try await stack.sensorCount() ?? 0
        #expect(!all.isEmpty && counted > 0)

        #expect(try await stack.cuffctl(["grant", uid, "heartRate", "read", "--person", "bob"]).status == 0)
        #expect(try await stack.heartRates(as: reader).isEmpty)
        #expect(try await stack.sensorCount(as: reader) == 0)
        #expect(try await stack.cuffctl(["revoke", uid, "heartRate", "--person", "bob"]).status == 0)
        #expect(try await stack.cuffctl(["grant", uid, "heartRate", "read", "--person", "alice"]).status == 0)
        // What the root read saw, at least (the strap may have sent more since).
        let seen = try await stack.heartRates(as: reader)
        #expect(seen.count >= all.count && seen.allSatisfy { $0["person"] as? String == "alice" })
        #expect(try await stack.sensorCount(as: reader) ?? 0 >= counted)
    }
}

extension Stack {
    /// The systolic pressures of a reply to `method` (`Readings`, `Changes`, `ChangeColumns`) with an empty request,
    /// called with busctl(1) as root or as `user`.
    func call(_ method: String, as user: Account? = nil) async throws -> [(systolic: Double, person: String?)] {
        let arguments = ["busctl", "--address=\(bus.address)", "--json=short", "call", "org.cuffd.Gateway1", "/org/cuffd/Gateway1",
                         "org.cuffd.Gateway1", method, "a{sv}", "0"]
        let output = try await offCooperativePool { try Self.run(arguments, as: user) }
        guard let reply = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], let data = (reply["data"] as? [Any])?.first
        else { throw TestFailure("busctl \(method): \(output)") }
        func value(_ variant: Any?) -> Any? { (variant as? [String: Any])?["data"] }
        func readings(_ dictionaries: [[String: Any]]) -> [(systolic: Double, person: String?)] {
            dictionaries.compactMap { reading in (value(reading["systolic"]) as? Double).map { ($0, value(reading["person"]) as? String) } }
        }
        switch method {
        case "Readings": return readings(data as? [[String: Any]] ?? [])
        case "Changes": return readings(value((data as? [String: Any])?["readings"]) as? [[String: Any]] ?? [])
        default:
            let columns = value((data as? [String: Any])?["columns"]) as? [String: Any]
            let systolic = value(columns?["systolic"]) as? [Double] ?? [], person = value(columns?["person"]) as? [String] ?? []
            return zip(systolic, person).map { ($0, $1.isEmpty ? nil : $1) }
        }
    }

    /// `heart-rate --json` as objects, as root or as `user`.
    func heartRates(as user: Account? = nil) async throws -> [[String: Any]] {
        let outcome = try await cuffctl(["heart-rate", "--json", "--limit", "1000"], as: user)
        guard outcome.status == 0 else { throw TestFailure("heart-rate exited \(outcome.status): \(outcome.error)") }
        return try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]] ?? []
    }

    /// The count of heart-rate sensor values (those sent with skin contact) `stats --json` gives root or `user`.
    func sensorCount(as user: Account? = nil) async throws -> Int? {
        let stats = try await cuffctl(["stats", "--json"], as: user)
        let figures = try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]]
        return figures?["heartRate"]?["count"] as? Int
    }

    /// Runs `arguments` (a program on PATH and its arguments) as root or, through setpriv(1), as `user`; its standard output.
    static func run(_ arguments: [String], as user: Account?) throws -> String {
        var command = arguments
        if let user {
            let groups = user.groups.isEmpty ? ["--clear-groups"] : ["--groups=" + user.groups.map(String.init).joined(separator: ",")]
            command = ["setpriv", "--reuid=\(user.uid)", "--regid=\(user.gid)"] + groups + arguments
        }
        let result = try ExternalCommand.run("/usr/bin/env", command)
        guard result.status == 0 else {
            throw TestFailure("\(arguments.joined(separator: " ")) exited \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }
}
