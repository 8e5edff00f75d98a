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
        ], kind: .readings)
    }

    @Test("A remembered cuff's user is announced (eleven configs) and its reading is the retained state; a forgotten cuff's reading goes to history after its user's removal, announcing nothing")
    func forgottenCuffStaysRemoved() throws {
        let plan = MQTTPagePlan(try Self.page(), users: [:], remembered: RememberedCuffs(addresses: [Self.remembered]), topics: Self.topics)
        let kept = plan.messages.filter { $0.topic.contains("KEPT") }
        #expect(kept.filter { $0.topic.hasSuffix("/config") && !$0.payload.isEmpty }.count == 11)
        #expect(kept.contains { $0.topic == "cuffd/KEPT/user1/state" && !$0.payload.isEmpty })
        let gone = plan.messages.filter { $0.topic.contains("GONE") }
        let removal = HomeAssistantDiscovery.removal(CuffUser(cuff: "GONE", user: "user1"), topics: Self.topics)
        #expect(Array(gone.prefix(removal.count)) == removal)
        #expect(gone.dropFirst(removal.count).map(\.topic) == ["cuffd/GONE/user1/history"])
        #expect(plan.users.keys.map(\.cuff) == ["KEPT"])
    }

    @Test("A deletion of the reading on a user's state topic, at its revision or a later one, orphans the user; its fallback is published retained, or the state cleared")
    func deletedState() throws {
        let remembered = RememberedCuffs(addresses: nil)
        let first = MQTTPagePlan(try Self.page(), users: [:], remembered: remembered, topics: Self.topics)
        let kept = CuffUser(cuff: "KEPT", user: "user1")
        #expect(first.users[kept]?.state == "cuffd.bp:KEPT" && first.users[kept]?.stateVersion == 1 && first.orphaned.isEmpty)
        func deleting(_ version: Int64) throws -> MQTTPagePlan {
            let page = try ChangePage([
                "anchor": DBusVariant(UInt64(3)), "more": DBusVariant(false),
                "deleted": DBusVariant(DBusValue.array(.structure([.string, .int64]), [.structure([.string("cuffd.bp:KEPT"), .int64(version)])])),
            ], kind: .readings)
            return MQTTPagePlan(page, users: first.users, remembered: remembered, topics: Self.topics)
        }
        // An older revision's deletion (a revision replacing it) leaves the state as it is.
        #expect(try deleting(0).orphaned.isEmpty)
        var plan = try deleting(1)
        #expect(plan.orphaned == [kept] && plan.messages.isEmpty)
        let older = ReadingRecord(systolic: 110, diastolic: 70, time: 500, device: ["address": Self.remembered, "serial": "KEPT"], userID: 1, syncIdentifier: "cuffd.bp:OLD")
        plan.fallBack(kept, to: older, topics: Self.topics)
        #expect(plan.messages.map(\.topic) == ["cuffd/KEPT/user1/state"] && plan.messages[0].retain && !plan.messages[0].payload.isEmpty)
        #expect(plan.users[kept]?.state == "cuffd.bp:OLD" && plan.users[kept]?.newest == 500)
        plan = try deleting(1)
        plan.fallBack(kept, to: nil, topics: Self.topics)
        #expect(plan.messages.map(\.topic) == ["cuffd/KEPT/user1/state"] && plan.messages[0].retain && plan.messages[0].payload.isEmpty)
        #expect(plan.users[kept]?.state == nil && plan.users[kept]?.newest == -.greatestFiniteMagnitude)
    }

    @Test("Without the property (an older cuffd), every cuff counts as remembered")
    func olderCuffd() throws {
        let plan = MQTTPagePlan(try Self.page(), users: [:], remembered: RememberedCuffs(addresses: nil), topics: Self.topics)
        #expect(plan.messages.filter { $0.topic.hasSuffix("/config") }.count == 22)
        #expect(Set(plan.users.keys.map(\.cuff)) == ["KEPT", "GONE"])
    }

    @Test("A removal is an empty retained message on each of the eleven config topics, the state topic and the cuff's battery topic")
    func removal() {
        let messages = HomeAssistantDiscovery.removal(CuffUser(cuff: "GONE", user: "user1"), topics: Self.topics)
        #expect(messages.allSatisfy { $0.payload.isEmpty && $0.retain })
        let announced = HomeAssistantDiscovery.configs(
            PublishedUser(cuff: "GONE", user: "user1", person: nil, device: [:], newest: 0), topics: Self.topics).map(\.topic)
        #expect(messages.map(\.topic) == announced + ["cuffd/GONE/user1/state", "cuffd/GONE/battery"])
    }

    /// A page of heart-rate samples of one strap, one a second from time 0, as `HeartRateChangeColumns` sends it.
    static func heartRatePage(_ contacts: [String], address: String = remembered) throws -> ChangePage {
        let samples = contacts.enumerated().map { second, contact in
            HeartRateRecord(
                beatsPerMinute: Double(60 + second), time: Double(second), sensorContact: contact, rrIntervals: [1000],
                device: ["address": address, "serial": "STRAP", "model": "SIM-HR"], syncIdentifier: "cuffd.hr:\(second)")
        }
        return try ChangePage([
            "anchor": DBusVariant(UInt64(9)), "more": DBusVariant(false), "columns": DBusVariant(HeartRateColumns.properties(samples)),
        ], kind: .heartRates)
    }

    @Test("A strap: announced once (heart rate and contact), a state at most every HeartRateInterval seconds of its samples, and at once when the contact changes")
    func heartRateThrottle() throws {
        let contacts = Array(repeating: "detected", count: 12) + ["notDetected", "notDetected", "detected"]
        let page = try Self.heartRatePage(contacts)
        let plan = MQTTPagePlan(page, users: [:], remembered: RememberedCuffs(addresses: [Self.remembered]), topics: Self.topics, heartRateInterval: 5)
        let configs = plan.messages.filter { $0.topic.hasSuffix("/config") }.map(\.topic)
        #expect(configs == ["homeassistant/sensor/cuffd_STRAP_heart_rate/heart_rate/config", "homeassistant/binary_sensor/cuffd_STRAP_heart_rate/contact/config"])
        let states = plan.messages.filter { $0.topic == "cuffd/STRAP/heart_rate/state" }
        #expect(states.allSatisfy { $0.retain })
        let bpm = states.compactMap { message in
            (try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])?["bpm"] as? Int
        }
        // Seconds 0, 5, 10; 12 (contact lost), 14 (contact back).
        #expect(bpm == [60, 65, 70, 72, 74])
        let first = try #require(try JSONSerialization.jsonObject(with: Data(states[0].payload)) as? [String: Any])
        #expect(first["contact"] as? String == "detected" && first["rr_intervals"] as? [Int] == [1000] && first["sync_identifier"] as? String == "cuffd.hr:0")
        #expect(first.keys.sorted() == ["bpm", "contact", "energy_expended", "measured_at", "person", "rr_intervals", "sync_identifier"])

        // The next page continues from what was published: nothing before second 19 but a change of contact.
        let again = MQTTPagePlan(page, users: plan.users, remembered: RememberedCuffs(addresses: [Self.remembered]), topics: Self.topics, heartRateInterval: 5)
        #expect(again.messages.isEmpty, "a page sent again publishes nothing new")
        let every = MQTTPagePlan(page, users: [:], remembered: RememberedCuffs(addresses: [Self.remembered]), topics: Self.topics, heartRateInterval: 0)
        #expect(every.messages.filter { $0.topic.hasSuffix("/state") }.count == contacts.count)
    }

    @Test("A forgotten strap's samples publish only its removal: two empty configs and an empty state")
    func forgottenStrap() throws {
        let plan = MQTTPagePlan(try Self.heartRatePage(["detected", "detected"], address: Self.forgotten), users: [:],
                                remembered: RememberedCuffs(addresses: [Self.remembered]), topics: Self.topics)
        #expect(plan.messages.map(\.topic) == [
            "homeassistant/sensor/cuffd_STRAP_heart_rate/heart_rate/config", "homeassistant/binary_sensor/cuffd_STRAP_heart_rate/contact/config",
            "cuffd/STRAP/heart_rate/state",
        ])
        #expect(plan.messages.allSatisfy { $0.payload.isEmpty && $0.retain })
        #expect(plan.users.isEmpty)
    }

    @Test("A cuff's battery: its level and low flag as the battery topic's JSON, null for a level the cuff does not tell; the battery entities read that topic")
    func battery() throws {
        #expect(String(decoding: CuffBattery(level: 80, low: false).payload, as: UTF8.self) == #"{"level":80,"low":false}"#)
        #expect(String(decoding: CuffBattery(level: nil, low: true).payload, as: UTF8.self) == #"{"level":null,"low":true}"#)
        let configs = HomeAssistantDiscovery.configs(
            PublishedUser(cuff: "KEPT", user: "user1", person: nil, device: [:], newest: 0), topics: Self.topics)
        let battery = configs.filter { $0.topic.contains("/battery") }.map { try? JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any] }
        #expect(battery.count == 2 && battery.allSatisfy { $0?["state_topic"] as? String == "cuffd/KEPT/battery" && $0?["device_class"] as? String == "battery" })
    }
}
