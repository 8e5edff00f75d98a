import DBusTestSupport
import Foundation
import Testing

/// `cuffctl forget` removes the cuff from Home Assistant (docs/home-assistant.md, "Forgetting a cuff"), whether
/// cuff-forward runs at the time or starts afterwards.
extension MQTTForwardingTests {
    /// The topics of the cuff's entities as the subscriber saw them announced: the eleven configs and the state (a strap: two configs).
    static func entityTopics(_ forwarding: MQTTForwardingStack<MosquittoBroker>) -> Set<String> {
        Set(forwarding.seen().filter { !$0.payload.isEmpty && ($0.topic.hasSuffix("/config") || $0.topic.hasSuffix("/state")) }.map(\.topic))
    }

    /// Waits until users.json lists the cuff and the anchor is written: the broker acknowledged the page, which the
    /// subscriber may have seen before.
    static func waitForStateFiles(_ forwarding: MQTTForwardingStack<MosquittoBroker>) async throws {
        let users = forwarding.directory.appendingPathComponent("state/mqtt/users.json").path
        try await forwarding.wait("users.json and the anchor written") { _ in
            (try? String(contentsOfFile: users, encoding: .utf8))?.contains(Self.cuff) == true && FileManager.default.fileExists(atPath: forwarding.anchorPath)
        }
    }

    /// Waits until each of `topics` has been emptied (an empty retained message) after what the subscriber saw before,
    /// then checks that a subscriber arriving now is handed none of them, and that users.json no longer lists the user.
    static func expectRemoved(_ topics: Set<String>, _ forwarding: MQTTForwardingStack<MosquittoBroker>, after seenBefore: Int) async throws {
        try await forwarding.wait("the cuff's configs and state emptied") { seen in
            topics.isSubset(of: Set(seen.dropFirst(seenBefore).filter { $0.payload.isEmpty }.map(\.topic)))
        }
        let retained = try await offCooperativePool { try forwarding.retained() }
        #expect(retained.map(\.topic) == ["cuffd/status"], "\(retained.map(\.topic))")
        // Written once the broker acknowledged the removal, which the subscriber may see before.
        let users = forwarding.directory.appendingPathComponent("state/mqtt/users.json")
        try await forwarding.wait("users.json without the user") { _ in
            (try? Data(contentsOf: users)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [Any] }?.isEmpty == true
        }
    }

    /// stored-records.json with START pressed twice: the first wakes the cuff (it advertises), the second has it measure.
    static let pressedTwice = [#"{"after": 3.0, "advertise": true},"#: #"{"after": 3.0, "advertise": true}, {"after": 3.0, "pressStart": true},"#]

    @Test("cuffctl forget while cuff-forward runs: an empty retained config for each of the cuff's eleven entities and an empty state, a later subscriber handed none; paired again, the next reading brings them back")
    func forgetWhileRunning() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.caughtUp(teardown, edits: Self.pressedTwice)
            let topics = Self.entityTopics(forwarding)
            #expect(topics.count == 12, "\(topics.sorted())")
            let before = forwarding.seen().count
            #expect(try await forwarding.stack.cuffctl(["forget", Self.cuff]).status == 0)
            try await Self.expectRemoved(topics, forwarding, after: before)
            try await forwarding.stack.wait(for: "from Home Assistant: cuffd no longer remembers its cuff", in: "forward.log")

            let removed = forwarding.seen().count
            // Forgotten, the cuff is away until its user wakes it: START wakes it, to be paired again.
            try await forwarding.stack.pressStart(Self.cuff, whenArmed: 0)
            #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
            #expect(try await forwarding.stack.measure(Self.cuff).status == 0)
            try await forwarding.wait("the entities back") { seen in
                topics.isSubset(of: Set(seen.dropFirst(removed).filter { !$0.payload.isEmpty }.map(\.topic)))
            }
            let retained = try await offCooperativePool { try forwarding.retained() }
            #expect(retained.count == 14, "\(retained.map(\.topic))")
        }
    }

    @Test("cuffctl forget while cuff-forward is stopped: nothing removed meanwhile; started again (beside a cuffd started again too, which knows its cuffs from its file), it removes the cuff's entities and state")
    func forgetWhileStopped() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.caughtUp(teardown)
            let topics = Self.entityTopics(forwarding)
            try await Self.waitForStateFiles(forwarding)
            try await forwarding.killForwarder()
            #expect(try await forwarding.stack.cuffctl(["forget", Self.cuff]).status == 0)
            #expect(try await forwarding.stack.stopDaemon() == 0)
            try await forwarding.stack.startDaemon()
            let before = forwarding.seen().count
            // Nobody else removes them: still retained while cuff-forward is away.
            let meanwhile = try await offCooperativePool { try forwarding.retained() }
            #expect(topics.isSubset(of: Set(meanwhile.map(\.topic))), "\(meanwhile.map(\.topic))")

            try forwarding.startForwarder(log: "forward-again.log")
            try await Self.expectRemoved(topics, forwarding, after: before)
            try await forwarding.stack.wait(for: "from Home Assistant: cuffd no longer remembers its cuff", in: "forward-again.log")
        }
    }

    @Test("Killed after the broker acknowledged the cuff's announcement but before users.json and the anchor said so, then the cuff forgotten: started again, the replayed page removes the entities and does not announce them")
    func forgetAfterCrashBeforeUsersFile() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.caughtUp(teardown)
            let topics = Self.entityTopics(forwarding)
            try await Self.waitForStateFiles(forwarding)
            try await forwarding.killForwarder()
            // The state of a crash between PUBACK and the two writes: neither file knows of the page.
            for file in ["users.json", "anchor"] {
                try FileManager.default.removeItem(at: forwarding.directory.appendingPathComponent("state/mqtt/\(file)"))
            }
            #expect(try await forwarding.stack.cuffctl(["forget", Self.cuff]).status == 0)
            let before = forwarding.seen().count
            try forwarding.startForwarder(log: "forward-again.log")
            try await Self.expectRemoved(topics, forwarding, after: before)
            try await forwarding.waitForEveryReading()
            #expect(!forwarding.seen().dropFirst(before).contains { $0.topic.hasSuffix("/config") && !$0.payload.isEmpty })
        }
    }
}
