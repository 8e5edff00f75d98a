import DBus
import Foundation
import ReadingColumns
import Testing

@testable import Forwarding

/// What a page of cuffd's feed becomes on the broker, for cuffs cuffd remembers and for one it has forgotten
/// (docs/home-assistant.md, "Topics" and "Forgetting a cuff").
@Suite("MQTT page plan")
struct MQTTPagePlanTests {
    static let topics = MQTTTopics(prefix: "cuffd", discoveryPrefix: "homeassistant")
    static let remembered = "C4:F3:12:53:F2:C9", forgotten = "E8:2A:44:10:3C:5D"

    /// A page of one reading from each of the two cuffs, as `ChangeColumns` sends it.
    static func page() throws -> ChangePage {
        func reading(_ address: String, serial: String, time: Double) -> ReadingRecord {
            ReadingRecord(
                systolic: 120, diastolic: 80, time: time, device: ["address": address, "serial": serial], userID: 1,
                syncIdentifier: "cuffd.bp:\(serial)", syncVersion: 1)
        }
        return try ChangePage([
            "anchor": DBusVariant(UInt64(2)), "more": DBusVariant(false),
            "columns": DBusVariant(ReadingColumns.properties([reading(remembered, serial: "KEPT", time: 1_000), reading(forgotten, serial: "GONE", time: 2_000)])),
        ])
    }

    @Test("A remembered cuff's user is announced (six configs) and its reading is the retained state; a forgotten cuff's reading goes to history after its user's removal, announcing nothing")
    func forgottenCuffStaysRemoved() throws {
        let plan = MQTTPagePlan(try Self.page(), users: [:], remembered: RememberedCuffs(addresses: [Self.remembered]), topics: Self.topics)
        let kept = plan.messages.filter { $0.topic.contains("KEPT") }
        #expect(kept.filter { $0.topic.hasSuffix("/config") && !$0.payload.isEmpty }.count == 6)
        #expect(kept.contains { $0.topic == "cuffd/KEPT/user1/state" && !$0.payload.isEmpty })
        let gone = plan.messages.filter { $0.topic.contains("GONE") }
        let removal = HomeAssistantDiscovery.removal(CuffUser(cuff: "GONE", user: "user1"), topics: Self.topics)
        #expect(Array(gone.prefix(removal.count)) == removal)
        #expect(gone.dropFirst(removal.count).map(\.topic) == ["cuffd/GONE/user1/history"])
        #expect(plan.users.keys.map(\.cuff) == ["KEPT"])
    }

    @Test("Without the property (an older cuffd), every cuff counts as remembered")
    func olderCuffd() throws {
        let plan = MQTTPagePlan(try Self.page(), users: [:], remembered: RememberedCuffs(addresses: nil), topics: Self.topics)
        #expect(plan.messages.filter { $0.topic.hasSuffix("/config") }.count == 12)
        #expect(Set(plan.users.keys.map(\.cuff)) == ["KEPT", "GONE"])
    }

    @Test("A removal is an empty retained message on each of the six config topics and on the state topic")
    func removal() {
        let messages = HomeAssistantDiscovery.removal(CuffUser(cuff: "GONE", user: "user1"), topics: Self.topics)
        #expect(messages.allSatisfy { $0.payload.isEmpty && $0.retain })
        let announced = HomeAssistantDiscovery.configs(
            PublishedUser(cuff: "GONE", user: "user1", person: nil, device: [:], newest: 0), topics: Self.topics).map(\.topic)
        #expect(messages.map(\.topic) == announced + ["cuffd/GONE/user1/state"])
    }
}
