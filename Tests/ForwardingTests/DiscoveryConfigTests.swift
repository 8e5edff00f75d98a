import Foundation
import ForwardingStatus
import Testing

@testable import Forwarding

/// The discovery configs cuff-forward retains for Home Assistant (docs/home-assistant.md, "Discovery"), written by
/// FoundationEssentials' JSONEncoder: each must be the JSON object Home Assistant reads, in the bytes JSONSerialization
/// (which cuff-forward used before it linked FoundationEssentials only) writes for the same object with sorted keys
/// and unescaped slashes — so that a retained config a broker already holds is published again unchanged.
@Suite("Discovery configs")
struct DiscoveryConfigTests {
    static let user = PublishedUser(
        cuff: "C4F31253F2C9", user: "1", person: "Ana \"Nana\" Pérez",
        device: ["address": "C4:F3:12:53:F2:C9", "model": "BP7000", "manufacturer": "Omron/Healthcare", "serial": "S1", "firmware": "1.2"],
        newest: 0)

    @Test("Each config is a JSON object with the user's device and topics, byte for byte what JSONSerialization writes for it")
    func sameBytesAsJSONSerialization() throws {
        let topics = MQTTTopics(prefix: "cuffd", discoveryPrefix: "homeassistant")
        let configs = HomeAssistantDiscovery.configs(Self.user, topics: topics)
        #expect(configs.count == HomeAssistantDiscovery.entities.count)
        for config in configs {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(config.payload)) as? [String: Any])
            let device = try #require(object["device"] as? [String: Any])
            #expect(device["name"] as? String == "Ana \"Nana\" Pérez")
            #expect(device["manufacturer"] as? String == "Omron/Healthcare")
            #expect(device["connections"] as? [[String]] == [["bluetooth", "C4:F3:12:53:F2:C9"]])
            // The battery's entities read the cuff's battery topic; the others the user's state.
            let battery = config.topic.contains("/battery")
            #expect(object["state_topic"] as? String == (battery ? topics.battery(Self.user.cuff) : topics.state(Self.user.key)))
            let rewritten = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            #expect(String(decoding: config.payload, as: UTF8.self) == String(decoding: rewritten, as: UTF8.self))
        }
        let sensor = try #require(configs.first { $0.topic.hasSuffix("/systolic/config") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(sensor.payload)) as? [String: Any])
        #expect(object["force_update"] as? Bool == true)
        #expect(object["unit_of_measurement"] as? String == "mmHg")
    }
}
