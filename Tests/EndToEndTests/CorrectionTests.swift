import DBusTestSupport
import Foundation
import Testing

/// Correcting the record through cuffd, with the shipped bus policy and throw-away users as in ``PolicyTests``
/// (docs/cuffctl.md, "Correcting readings").
@Suite("Correcting readings: who may, and what it changes", .serialized, .enabled(if: getuid() == 0, "creates throw-away users and groups, which needs root"))
struct CorrectionTests {
    static let cuff = "E8:2A:44:10:3C:5D"
    /// The journal's `MESSAGE_ID` of changes on request (docs/journal.md).
    static let editMessageID = "9372864acbe44169849fc0f107dd3408"

    /// `body` with throw-away accounts, the shipped policy, cuffd and the cuff of stored-records.json paired — its three
    /// stored records are stored —, its readings those of the person `alice`. The cuff measures only once the test
    /// presses START (``Stack/measure(_:_:as:)``): until then, nothing changes the store but the test.
    static func withPaired(_ body: (PolicyTests.Accounts, Stack) async throws -> Void) async throws {
        let accounts = try await offCooperativePool { try PolicyTests.makeAccounts() }
        defer { Thread { PolicyTests.cleanUp(accounts) }.start() }
        let stack = try await Stack.make(
            scenario: "stored-records.json", policy: try PolicyTests.policy(accounts), configuration: "[Cuff \(cuff)]\nNoUser=alice\n",
            daemonArguments: ["--admin-group", accounts.adminGroup, "--reader-group", accounts.readerGroup], manualStart: true)
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", Self.cuff]).status == 0)
        try await body(accounts, stack)
    }

    static func identifiers(_ readings: [[String: Any]]) -> [String] { readings.compactMap { $0["syncIdentifier"] as? String } }

    @Test("delete: refused without share access (77) and for an unknown reading (68), nothing changed; a reader with read,share deletes; the cuff sending it again from its memory does not bring it back")
    func delete() async throws {
        try await Self.withPaired { accounts, stack in
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
            let entry = stack.journalEntries().first { $0["MESSAGE_ID"] == Self.editMessageID && $0["BP_EDIT"] == "deleted" }
            #expect(entry?["MESSAGE"] == "uid \(accounts.reader.uid) deleted the reading \(oldest)", "\(String(describing: entry))")
            #expect(entry?["BP_CALLER_UID"] == "\(accounts.reader.uid)" && entry?["BP_SYNC_IDENTIFIER"] == oldest && entry?["BP_CHANGED"] == nil)
            // Who deleted it stays in the store's history, which a reader of the reading reads; an outsider may not.
            let history = try await stack.cuffctl(["history", oldest], as: accounts.reader)
            #expect(history.status == 0 && history.output.hasSuffix("  uid \(accounts.reader.uid)  deleted\n"), "\(history.output) \(history.error)")
            #expect(try await stack.cuffctl(["history", oldest], as: accounts.outsider).status == 77)
            let stats = try await stack.cuffctl(["stats", "--json"])
            let counts = try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]]
            #expect(counts?["systolic"]?["count"] as? Int == 2, "\(stats.output)")
            // Deleted already: unknown now.
            #expect(try await stack.cuffctl(["delete", oldest]).status == 68)

            // The cuff connects again for a measurement and sends its three stored records with the new one: the deleted
            // record is not stored again.
            #expect(try await stack.measure(Self.cuff).status == 0)
            let after = Self.identifiers(try await stack.readings())
            #expect(after.count == 3 && !after.contains(oldest) && Array(after.prefix(2)) == Array(stored.dropFirst()), "\(after)")
        }
    }

    @Test("add: a reading entered by hand, with its arm, position and note, no device, marked so; implausible values and times exit 65 naming the range, bad words 64, no share access 77 — nothing stored")
    func add() async throws {
        try await Self.withPaired { accounts, stack in
            let before = Self.identifiers(try await stack.readings())

            let refusals: [([String], Int32, String)] = [
                (["350/80"], 65, "systolic 350 mmHg outside 20–300 mmHg"),
                (["120/5"], 65, "diastolic 5 mmHg outside 10–300 mmHg"),
                (["120/130"], 65, "not below systolic"),
                (["120/80", "--pulse", "300"], 65, "pulse 300/min outside 30–240/min"),
                (["120/80", "--time", "2999-01-01"], 65, "in the future"),
                (["120/80", "--time", "1899-12-31T12:00:00Z"], 65, "before 1900"),
                (["120/80", "--arm", "middle"], 64, "left or right"),
                (["120/80", "--position", "upside-down"], 64, "sitting, standing, lying"),
                (["120/80", "--person", "mallory"], 64, "no person \"mallory\" is configured (configured: alice)"),
                (["120/80", "--note", "two\nlines"], 64, "control characters"),
                (["120/80", "--note", String(repeating: "x", count: 1001)], 64, "at most 1000 bytes"),
                (["120"], 64, "SYS/DIA"),
            ]
            for (arguments, status, message) in refusals {
                let refused = try await stack.cuffctl(["add"] + arguments)
                #expect(refused.status == status && refused.error.contains(message), "\(arguments): \(refused.status) \(refused.error)")
            }
            #expect(try await stack.cuffctl(["add", "120/80"], as: accounts.outsider).status == 77)
            let unshared = try await stack.cuffctl(["add", "120/80"], as: accounts.reader)
            #expect(unshared.status == 77 && unshared.error.contains("permission denied"), "\(unshared.error)")
            #expect(Self.identifiers(try await stack.readings()) == before)

            let added = try await stack.cuffctl(
                ["add", "128/82", "--pulse", "70", "--time", "2026-11-19T08:00:00+01:00", "--person", "alice", "--arm", "left",
                 "--position", "sitting", "--note", "pharmacy, manual cuff"])
            #expect(added.status == 0, "\(added.error)")
            let identifier = added.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let readings = try await stack.readings()
            let entered = try #require(readings.first { $0["syncIdentifier"] as? String == identifier })
            #expect(entered["systolic"] as? Double == 128 && entered["diastolic"] as? Double == 82 && entered["pulseRate"] as? Double == 70)
            #expect(entered["enteredByHand"] as? Bool == true && entered["arm"] as? String == "left" && entered["position"] as? String == "sitting")
            #expect(entered["note"] as? String == "pharmacy, manual cuff" && entered["person"] as? String == "alice")
            #expect((entered["device"] as? [String: Any])?["address"] is NSNull, "\(entered)")
            // Measured before the cuff's records: the oldest reading. A cuff's reading says nothing of hand entry.
            #expect(readings.first?["syncIdentifier"] as? String == identifier && readings.last?["enteredByHand"] == nil)
            let line = try await stack.cuffctl(["readings", "--limit", "4"])
            #expect(line.output.contains("128/82 mmHg  pulse 70/min") && line.output.contains("(entered by hand)  left arm, sitting  note: pharmacy, manual cuff"), "\(line.output)")
            let entry = stack.journalEntries().first { $0["MESSAGE_ID"] == Self.editMessageID && $0["BP_SYNC_IDENTIFIER"] == identifier }
            #expect(entry?["BP_EDIT"] == "entered" && entry?["BP_CALLER_UID"] == "0", "\(String(describing: entry))")
            #expect(entry?["BP_CHANGED"]?.contains("Note,PersonIdentifier") == true && entry?["MESSAGE"]?.contains("pharmacy") == false, "\(String(describing: entry))")
            let history = try await stack.cuffctl(["history", identifier, "--json"])
            let changes = try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]]
            #expect(changes?.map { $0["action"] as? String } == ["entered"] && changes?.first?["uid"] as? Int == 0, "\(history.output)")

            // A reader with share access may enter one too, under its own uid, and read it back as any reading.
            #expect(try await stack.cuffctl(["grant", "\(accounts.reader.uid)", "bloodPressure", "read,share"]).status == 0)
            let shared = try await stack.cuffctl(["add", "118/76"], as: accounts.reader)
            #expect(shared.status == 0, "\(shared.error)")
            #expect(Self.identifiers(try await stack.readings(as: accounts.reader)).count == before.count + 2)
        }
    }

    @Test("annotate: a new revision — excluded readings stay listed but leave stats, included again they count; moved to a person or to nobody; arm, position, note; bad or conflicting changes, unknown and deleted readings and uids without share access change nothing")
    func annotate() async throws {
        try await Self.withPaired { accounts, stack in
            let stored = Self.identifiers(try await stack.readings())
            let guest = stored[1]
            func systolicCount() async throws -> Int? {
                let stats = try await stack.cuffctl(["stats", "--json"])
                return (try JSONSerialization.jsonObject(with: Data(stats.output.utf8)) as? [String: [String: Any]])?["systolic"]?["count"] as? Int
            }
            func reading(_ identifier: String) async throws -> [String: Any]? {
                try await stack.readings().first { $0["syncIdentifier"] as? String == identifier }
            }

            let refusals: [([String], Int32, String)] = [
                ([guest, "--exclude", "x", "--include"], 64, "contradict"),
                ([guest, "--person", "alice", "--no-person"], 64, "contradict"),
                ([guest, "--person", "bob"], 64, "no person \"bob\" is configured"),
                ([guest, "--exclude", ""], 64, "is not empty"),
                ([guest, "--arm", "both"], 64, "left or right"),
                ([guest, "--note", "a\u{1b}[2J"], 64, "control characters"),
                ([guest], 64, "nothing to change"),
                (["no-such-reading", "--note", "x"], 68, "no-such-reading"),
            ]
            for (arguments, status, message) in refusals {
                let refused = try await stack.cuffctl(["annotate"] + arguments)
                #expect(refused.status == status && refused.error.contains(message), "\(arguments): \(refused.status) \(refused.error)")
            }
            #expect(try await stack.cuffctl(["grant", "\(accounts.reader.uid)", "bloodPressure", "read"]).status == 0)
            #expect(try await stack.cuffctl(["annotate", guest, "--exclude", "guest"], as: accounts.reader).status == 77)
            #expect(try await reading(guest)?["excluded"] == nil)
            #expect(try await systolicCount() == 3)

            let excluded = try await stack.cuffctl(["annotate", guest, "--exclude", "a guest used the cuff"])
            #expect(excluded.status == 0 && excluded.output == "revision 1\n", "\(excluded.error)")
            let marked = try #require(try await reading(guest))
            #expect(marked["excluded"] as? Bool == true && marked["exclusionReason"] as? String == "a guest used the cuff")
            #expect(try await systolicCount() == 2)
            let entry = stack.journalEntries().first { $0["MESSAGE_ID"] == Self.editMessageID && $0["BP_EDIT"] == "annotated" }
            #expect(entry?["MESSAGE"] == "uid 0 annotated the reading \(guest): ExclusionReason", "\(String(describing: entry))")
            #expect(entry?["BP_CALLER_UID"] == "0" && entry?["BP_SYNC_IDENTIFIER"] == guest && entry?["BP_CHANGED"] == "ExclusionReason")

            #expect(try await stack.cuffctl(["grant", "\(accounts.reader.uid)", "bloodPressure", "read,share"]).status == 0)
            let described = try await stack.cuffctl(
                ["annotate", guest, "--include", "--no-person", "--arm", "right", "--position", "lying", "--note", "after coffee"], as: accounts.reader)
            #expect(described.status == 0 && described.output == "revision 2\n", "\(described.error)")
            let after = try #require(try await reading(guest))
            #expect(after["excluded"] == nil && after["person"] is NSNull && after["arm"] as? String == "right", "\(after)")
            #expect(after["position"] as? String == "lying" && after["note"] as? String == "after coffee")
            #expect(try await systolicCount() == 3)
            #expect(try await stack.cuffctl(["annotate", guest, "--person", "alice"]).output == "revision 3\n")
            #expect(try await reading(guest)?["person"] as? String == "alice")

            // Several readings in one call: all or nothing, one journal entry naming them.
            let others = [stored[0], stored[2]]
            let unknownAmong = try await stack.cuffctl(["annotate", others[0], "no-such-reading", "--note", "x"])
            #expect(unknownAmong.status == 68 && unknownAmong.error.contains("no-such-reading"), "\(unknownAmong.error)")
            #expect(try await reading(others[0])?["note"] == nil)
            let bulk = try await stack.cuffctl(["annotate"] + others + ["--note", "bulk"])
            #expect(bulk.status == 0 && bulk.output == "annotated 2 readings\n", "\(bulk.error)")
            for identifier in others { #expect(try await reading(identifier)?["note"] as? String == "bulk") }
            #expect(stack.journalEntries().contains {
                $0["MESSAGE_ID"] == Self.editMessageID && $0["BP_SYNC_IDENTIFIER"] == others.joined(separator: ",") && $0["BP_CHANGED"] == "Note"
            })

            #expect(try await stack.cuffctl(["delete", guest]).status == 0)
            let gone = try await stack.cuffctl(["annotate", guest, "--note", "x"])
            #expect(gone.status == 68, "\(gone.error)")

            // Its history: every revision and the deletion, who made them and which keys changed, oldest first; refused
            // changes left none.
            let history = try await stack.cuffctl(["history", guest, "--json"])
            let changes = try #require(try JSONSerialization.jsonObject(with: Data(history.output.utf8)) as? [[String: Any]], "\(history.output)")
            #expect(changes.map { $0["action"] as? String } == ["annotated", "annotated", "annotated", "deleted"])
            #expect(changes.map { $0["uid"] as? Int } == [0, Int(accounts.reader.uid), 0, 0])
            #expect(changes.map { $0["changed"] as? [String] } == [
                ["ExclusionReason"], ["BodyPosition", "ExclusionReason", "MeasurementLocation", "Note", "PersonIdentifier"], ["PersonIdentifier"], [],
            ])
            let text = try await stack.cuffctl(["history", guest], as: accounts.reader)
            let lines = text.output.split(separator: "\n")
            #expect(lines.count == 4 && lines[0].hasSuffix("  uid 0  annotated  ExclusionReason") && lines[3].hasSuffix("  uid 0  deleted"), "\(text.output)")
            #expect(try await stack.cuffctl(["history", "no-such-reading"]).status == 68)
        }
    }
}
