import DBusTestSupport
import Foundation
import Testing

extension MQTTForwardingTests {
    @Test("cuffctl delete of the reading on the state topic: the retained state falls back to the user's newest remaining reading; of the last one, it is cleared")
    func deletedState() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.caughtUp(teardown)
            let readings = try await forwarding.stack.readings()
            @Sendable func retainedState() throws -> [String] {
                try forwarding.retained().filter { $0.topic.hasSuffix("/state") }.map { $0.json["sync_identifier"] as? String ?? $0.payload }
            }
            // readings --json lists them by measurement time: the newest last, on the state topic.
            let identifiers = readings.compactMap { $0["syncIdentifier"] as? String }
            #expect(try await offCooperativePool { try retainedState() } == [identifiers.last!])

            let states = { forwarding.seen().filter { $0.topic.hasSuffix("/state") } }
            let published = states().count
            #expect(try await forwarding.stack.cuffctl(["delete", identifiers.last!]).status == 0)
            try await forwarding.wait("the state falling back") { _ in states().count > published }
            #expect(states().last?.json["sync_identifier"] as? String == identifiers[identifiers.count - 2])
            #expect(try await offCooperativePool { try retainedState() } == [identifiers[identifiers.count - 2]])

            // Every other one deleted, the newest last: no reading is left, and the retained state is cleared.
            #expect(try await forwarding.stack.cuffctl(["delete"] + identifiers.dropLast(2)).status == 0)
            #expect(try await forwarding.stack.cuffctl(["delete", identifiers[identifiers.count - 2]]).status == 0)
            try await forwarding.wait("the state cleared") { _ in states().last?.payload == "" }
            #expect(try await offCooperativePool { try retainedState() }.isEmpty)
        }
    }

    @Test("cuffctl annotate --exclude of the reading on the state topic: it goes to history, the state falls back to the newest that counts; --include brings it back")
    func excludedState() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.caughtUp(teardown)
            let identifiers = try await forwarding.stack.readings().compactMap { $0["syncIdentifier"] as? String }
            let states = { forwarding.seen().filter { $0.topic.hasSuffix("/state") } }
            let published = states().count
            #expect(try await forwarding.stack.cuffctl(["annotate", identifiers.last!, "--exclude", "a guest used the cuff"]).status == 0)
            try await forwarding.wait("the state falling back") { _ in states().count > published }
            #expect(states().last?.json["sync_identifier"] as? String == identifiers[identifiers.count - 2])
            let history = forwarding.seen().filter { $0.topic.hasSuffix("/history") }.last?.json
            #expect(history?["sync_identifier"] as? String == identifiers.last! && history?["excluded"] as? String == "a guest used the cuff")

            #expect(try await forwarding.stack.cuffctl(["annotate", identifiers.last!, "--include"]).status == 0)
            try await forwarding.wait("the state back") { _ in states().last?.json["sync_identifier"] as? String == identifiers.last! }
            #expect(states().last?.json["sync_version"] as? Int == 2 && states().last?.json["excluded"] is NSNull)
        }
    }
}
