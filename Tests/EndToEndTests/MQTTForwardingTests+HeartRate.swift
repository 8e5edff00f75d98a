import CuffSimulation
import DBusTestSupport
import Foundation
import Testing

/// A heart-rate strap in Home Assistant (docs/home-assistant.md, "Heart rate"): its two entities, a state at most every
/// HeartRateInterval= seconds of its samples — at once when the skin contact changes —, and its removal on forget.
extension MQTTForwardingTests {
    static let strap = "E8:3C:A1:07:6D:21"

    /// The sync identifiers of the samples that call for a retained state, in the order cuffd stored them: the first,
    /// then each one at least `interval` microseconds of the samples' own times after the last state, or whose skin
    /// contact differs from it (docs/home-assistant.md, "Heart rate"). A sample's time is the microsecond cuffd received
    /// it at, the end of its sync identifier (docs/gateway.md, "Heart rate").
    static func statesCalledFor(_ samples: [[String: Any]], interval: Int64) -> [String] {
        var states: [String] = []
        var last: (time: Int64, contact: String)?
        for sample in samples {
            guard let identifier = sample["syncIdentifier"] as? String, let time = identifier.split(separator: ":").last.flatMap({ Int64($0) }) else {
                continue
            }
            let contact = sample["sensorContact"] as? String ?? ""
            if last.map({ time >= $0.time + interval || (time >= $0.time && contact != $0.contact) }) ?? true {
                states.append(identifier)
                last = (time, contact)
            }
        }
        return states
    }

    @Test("A strap: heart rate and skin contact announced, a retained state at most every 5 s of its samples and at once when the contact changes, the configs Home Assistant's; forgotten, both entities and the state removed")
    func strap() async throws {
        try await withTeardown { teardown in
            let forwarding = try await MQTTForwardingStack<MosquittoBroker>.make(scenario: "strap.json")
            teardown.add { forwarding.broker.remove() }
            let stack = forwarding.stack
            try await stack.startDaemon()
            try forwarding.startForwarder()
            let follow = try stack.startCuffctl(["heart-rate", "--follow", "--json", "--limit", "1000"], log: "follow.log")
            defer { follow.terminate() }
            #expect(try await stack.cuffctl(["pair", Self.strap]).status == 0)
            let topic = "cuffd/0007/heart_rate/state"
            func states(_ seen: [MQTTForwardingStack<MosquittoBroker>.Seen]) -> [MQTTForwardingStack<MosquittoBroker>.Seen] {
                seen.filter { $0.topic == topic && !$0.payload.isEmpty }
            }
            // Every sample stored, as heart-rate --follow prints them: the states are those the samples' own times and
            // contacts call for. The strap sends every 0.25 s for 15 s, a second of it without skin contact, but a busy
            // machine bunches or spreads the times cuffd receives them at, so which samples make a state is read from
            // them, not from the scenario's spacing.
            let stored = try #require(Scenario.parse(Data(contentsOf: stack.scenario)).expect?.heartRates)
            try await stack.logged.wait(for: "\(stored) samples stored:\n\(stack.text("follow.log"))") { _ in
                stack.text("follow.log").split(separator: "\n").count >= stored ? () : nil
            }
            let samples = stack.text("follow.log").split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            let expected = Self.statesCalledFor(samples, interval: 5_000_000)
            try await forwarding.wait("a state for each of the \(expected.count) samples that call for one") { seen in
                states(seen).compactMap { $0.json["sync_identifier"] as? String } == expected
            }
            #expect(samples.count == stored && expected.count < stored, "\(expected.count) states of \(samples.count) samples")
            #expect(samples.filter { $0["sensorContact"] as? String == "notDetected" }.count == 4)
            let states = states(forwarding.seen())
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
