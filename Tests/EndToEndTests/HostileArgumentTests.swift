import DBus
import DBusTestSupport
import Foundation
import PropertyBased
import Testing

/// What a member of group `cuffd` can send cuffd (docs/dbus-api.md): values that cannot be answered are
/// refused with `InvalidArguments`, a store larger than any reply is read a page at a time, and random calls
/// never take cuffd down.
@Suite("cuffd under hostile and large requests", .serialized)
struct HostileArgumentTests {
    /// A scenario whose cuff holds `count` stored records, one a minute from 2026-11-24 07:00, 600 a day (0x2A35 with
    /// time stamp, pulse and status; GATT Specification Supplement §3.31), record n with the status bits `status(n)`.
    /// They lie after the shipped scenarios' readings and, as a cuff's time must to be believed, not ahead of the
    /// clock (docs/gateway.md, "Time").
    static func manyRecords(_ count: Int, in directory: URL, status: (Int) -> UInt8 = { _ in 0 }) throws -> URL {
        let records = (0..<count).map { n -> String in
            let (day, minute) = (24 + n / 600, n % 600)
            let bytes: [UInt8] = [0x16, UInt8(100 + n % 60), 0x00, UInt8(60 + n % 30), 0x00, 0x5A, 0x00, 0xEA, 0x07, 0x0B,
                                  UInt8(day), UInt8(7 + minute / 60), UInt8(minute % 60), 0x00, 0x46, 0x00, status(n), 0x00]
            return "\"" + bytes.map { String(format: "%02X", $0) }.joined(separator: " ") + "\""
        }
        let text = """
            {"adapter": {"address": "00:1A:7D:DA:71:13"},
             "cuffs": [{"address": "E8:2A:44:10:3C:5D", "name": "BU550", "services": ["1810", "180A"], "pairing": "justWorks",
                        "deviceInformation": {"manufacturer": "cuffd project", "model": "SIM-MANY", "serial": "0042"},
                        "storedRecords": [\(records.joined(separator: ","))], "timeline": []}]}
            """
        let url = directory.appendingPathComponent("many.json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// `cuff-sim replay SCENARIO --store` into the stack's store, before cuffd starts; its exit status.
    static func replay(_ scenario: URL, into stack: Stack) async throws -> Int32 {
        try await ExternalCommand.runDetached(
            Stack.binaries.appendingPathComponent("cuff-sim").path, ["replay", scenario.path, "--store", stack.storePath]).status
    }

    @Test("A store larger than one reply: readings pages through all of it, --limit takes the newest; bad times exit 64")
    func pagedReadings() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        let scenario = try Self.manyRecords(1234, in: stack.directory)
        #expect(try await Self.replay(scenario, into: stack) == 0)
        try await stack.startDaemon()

        let all = try await stack.readings()
        #expect(all.count == 1234)
        let times = all.compactMap { $0["time"] as? String }
        #expect(times == times.sorted() && Set(all.compactMap { $0["syncIdentifier"] as? String }).count == 1234)
        let newest = try await stack.cuffctl(["readings", "--json", "--limit", "1100"])
        let page = try #require(JSONSerialization.jsonObject(with: Data(newest.output.utf8)) as? [[String: Any]])
        #expect(page.compactMap { $0["syncIdentifier"] as? String } == all.suffix(1100).compactMap { $0["syncIdentifier"] as? String })

        let far = try await stack.cuffctl(["readings", "--since", "300000-01-01T00:00:00Z"])
        #expect(far.status == 64, "\(far.error)")
        let connection = try DBusConnection.open(.address(stack.bus.address), label: "test", callTimeout: testDeadline)
        for (key, value) in [("since", DBusValue.double(.nan)), ("until", .double(.infinity)), ("since", .double(-9.3e12)), ("limit", .uint32(100_000))] {
            let answer = await Self.errorName(connection, "Readings", [.dictionary(key: .string, value: .variant, [DBusDictionaryEntry(.string(key), .variant(value))])])
            #expect(answer == "org.cuffd.Error.InvalidArguments", "\(key) = \(value)")
        }
        #expect(try await stack.cuffctl(["status"]).status == 0)
        #expect(try await stack.stopDaemon() == 0)
    }

    @Test("readings --follow prints a reading measured before everything shown, as soon as it is stored")
    func followPrintsLateRecords() async throws {
        let stack = try await Stack.make(scenario: "passkey.json", manualStart: true)
        let scenario = try Self.manyRecords(120, in: stack.directory)
        #expect(try await Self.replay(scenario, into: stack) == 0)
        try await stack.startDaemon()
        let follow = try stack.startCuffctl(["readings", "--follow", "--json", "--limit", "2"], log: "follow.log")
        defer { follow.terminate() }
        try await stack.wait(for: "\n", in: "follow.log")
        #expect(try await stack.cuffctl(["pair", "D0:5F:B8:4A:21:07", "--passkey", "123456"]).status == 0)
        // passkey.json's cuff measures on 2026-11-23, a day before the 120 readings already stored.
        #expect(try await stack.measure("D0:5F:B8:4A:21:07").status == 0)
        try await stack.wait(for: "\"systolic\":118", in: "follow.log")
        let lines = stack.text("follow.log").split(separator: "\n")
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.last?.contains("\"deviceTime\":\"2026-11-23T07:15:00\"") == true)
    }

    static let name = "org.cuffd.Gateway1"
    static let path: DBusObjectPath = "/org/cuffd/Gateway1"
    static let members = ["Readings", "Statistics", "Scan", "Start", "Stop", "Grant", "GrantPerson", "Revoke", "RevokePerson", "Grants", "Permissions", "Pair", "ProvidePasskey", "Forget"]
    static let keys = ["since", "until", "device", "user", "limit", "syncIdentifier", "before", "after", "bogus"]

    /// One argument of a random type and value: special and huge numbers, long and odd strings, nested filters.
    static func argument(_ seed: UInt64) -> DBusValue {
        let number = Double(bitPattern: seed &* 0x9E37_79B9_7F4A_7C15)
        let text = [
            "", "C4:F3:12:53:F2:C9", "zz:zz", String(repeating: "A", count: Int(seed % 70_000)), "read,read,share,",
            "bloodPressure", "\u{0}\u{FFFF}", "1:" + UUID().uuidString,
        ][Int(seed % 8)]
        switch seed % 9 {
        case 0: return .double(number)
        case 1: return .double([.nan, .infinity, -.infinity, 1e300, 0.001][Int(seed / 9 % 5)])
        case 2: return .string(text)
        case 3: return .uint32(UInt32(truncatingIfNeeded: seed >> 7))
        case 4: return .int32(Int32(truncatingIfNeeded: seed >> 5))
        case 5: return .byte(UInt8(truncatingIfNeeded: seed >> 3))
        default:
            var entries: [String: DBusValue] = [:]
            for n in 0..<Int(seed % 4) {
                entries[keys[Int((seed >> UInt64(4 * n)) % UInt64(keys.count))]] = argument(seed >> UInt64(8 + 8 * n) ^ UInt64(n + 1))
            }
            return .dictionary(key: .string, value: .variant, entries.map { DBusDictionaryEntry(.string($0.key), .variant($0.value)) })
        }
    }

    @Test("300 calls with random members and argument values: each answered, cuffd still up")
    func randomCalls() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        try await stack.startDaemon()
        let connection = try DBusConnection.open(.address(stack.bus.address), label: "test", callTimeout: testDeadline)
        await propertyCheck(count: 300, input: Gen.uint64(), Gen.uint64(), Gen.uint64()) { pick, first, second in
            let member = Self.members[Int(pick % UInt64(Self.members.count))]
            let arguments = (0..<Int(pick / 16 % 4)).map { Self.argument($0 == 0 ? first : second ^ UInt64($0)) }
            // An error reply is an answer; no reply at all (cuffd gone or stuck) is not. Scan, Start and Pair may wait for a
            // cuff that never comes: they are given 3 s, and only cuffd's being there is checked after them.
            let waitsForCuff = ["Scan", "Start", "Pair"].contains(member)
            let answer = await Self.errorName(connection, member, arguments, timeout: waitsForCuff ? .seconds(3) : testDeadline)
            #expect(answer != "org.freedesktop.DBus.Error.NoReply" || waitsForCuff, "\(member) \(arguments)")
            #expect(answer != "org.freedesktop.DBus.Error.ServiceUnknown", "cuffd is gone after \(member) \(arguments)")
        }
        #expect(stack.daemon?.isRunning == true, "\(stack.text("cuffd.log"))")
        #expect(try await stack.cuffctl(["status"]).status == 0)
        #expect(try await stack.stopDaemon() == 0)
    }

    /// The error name a call to cuffd answers with, or nil for a reply.
    static func errorName(_ connection: DBusConnection, _ member: String, _ arguments: [DBusValue], timeout: Duration = testDeadline) async -> String? {
        do {
            _ = try await connection.call(name, path, name, member, arguments, timeout: timeout)
            return nil
        } catch {
            return error.name.rawValue
        }
    }
}
