import CuffSimulation
import DBusTestSupport
import Foundation
import Testing

/// A heart-rate strap in Home Assistant (docs/home-assistant.md, "Heart rate"): its two entities, a state at most every
/// HeartRateInterval= seconds of its samples — at once when the skin contact changes —, and its removal on forget.
extension MQTTForwardingTests {
    static let strap = "E8:3C:A1:07:6D:21"

    /// The microsecond cuffd received a sample at, the end of its sync identifier (docs/gateway.md, "Heart rate").
    static func received(_ state: MQTTForwardingStack<MosquittoBroker>.Seen) -> Int64 {
        (state.json["sync_identifier"] as? String)?.split(separator: ":").last.flatMap { Int64($0) } ?? 0
    }

    @Test("A strap: heart rate and skin contact announced, a retained state at most every 5 s of its samples and at once when the contact changes, the configs Home Assistant's; forgotten, both entities and the state removed")
    func strap() async throws {
        try await withTeardown { teardown in
            let forwarding = try await MQTTForwardingStack<MosquittoBroker>.make(scenario: "strap.json")
            teardown.add { forwarding.broker.remove() }
            try await forwarding.stack.startDaemon()
            try forwarding.startForwarder()
            #expect(try await forwarding.stack.cuffctl(["pair", Self.strap]).status == 0)
            let topic = "cuffd/0007/heart_rate/state"
            func states(_ seen: [MQTTForwardingStack<MosquittoBroker>.Seen]) -> [MQTTForwardingStack<MosquittoBroker>.Seen] {
                seen.filter { $0.topic == topic && !$0.payload.isEmpty }
            }
            // The strap loses contact at 8.25 s and has it back at 9.25 s, and sends until 15.25 s: the state of its
            // contact back, then one at least 5 s after it.
            try await forwarding.wait("the contact back and a state 5 s later") { seen in
                let states = states(seen)
                guard let lost = states.lastIndex(where: { $0.json["contact"] as? String == "notDetected" }), lost + 1 < states.count else { return false }
                return states.contains { Self.received($0) >= Self.received(states[lost + 1]) + 5_000_000 }
            }
            let states = states(forwarding.seen())
            let stored = try #require(Scenario.parse(Data(contentsOf: forwarding.stack.scenario)).expect?.heartRates)
            #expect(states.count >= 5 && states.count < stored, "\(states.count) states of \(stored) samples")
            for (earlier, later) in zip(states, states.dropFirst()) {
                let contactChanged = earlier.json["contact"] as? String != later.json["contact"] as? String
                #expect(contactChanged || Self.received(later) - Self.received(earlier) >= 5_000_000, "\(earlier.payload) → \(later.payload)")
            }
            let retained = try await offCooperativePool { try forwarding.retained() }
            #expect(retained.first { $0.topic == topic }?.payload == states.last?.payload)

            // Each config as Home Assistant reads it, its template rendered against the real state.
            let entities = try forwarding.discoveryCheck()
            #expect(Set(entities.keys) == ["cuffd_0007_heart_rate_heart_rate", "cuffd_0007_heart_rate_contact"], "\(entities.keys.sorted())")
            let last = try #require(states.last).json
            #expect((entities["cuffd_0007_heart_rate_heart_rate"]?["state"] as? String).flatMap(Double.init) == last["bpm"] as? Double)
            #expect(entities["cuffd_0007_heart_rate_contact"]?["state"] as? String == "ON")

            let topics = Self.entityTopics(forwarding)
            #expect(topics.count == 3, "\(topics.sorted())")
            let before = forwarding.seen().count
            #expect(try await forwarding.stack.cuffctl(["forget", Self.strap]).status == 0)
            try await Self.expectRemoved(topics, forwarding, after: before)
        }
    }
}
