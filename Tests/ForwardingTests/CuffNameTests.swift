import PropertyBased
import Testing

@testable import Forwarding

/// Cuffs' names in MQTT topics and Home Assistant's ids (docs/home-assistant.md, "Topics"): one to one, each a valid
/// topic level and id, and the names given before escaping kept where they were already distinct.
@Suite("Cuff names in topics")
struct CuffNameTests {
    /// Pieces of serial numbers, chosen to meet each rule's edge: the wildcards and the level separator, `_` and `__`,
    /// what an escape looks like, an address and an address's name, text beyond ASCII, a NUL.
    static let pieces = ["A", "z", "0", "-", "_", "__", ":", "/", "+", "#", " ", "é", "\u{0}", "F3", "2F", "__2F", "_2F", "%2F",
                         "C4:F3:12:53:F2:C9", "C4_F3_12_53_F2_C9", "c4:f3:12:53:f2:c9", "unknown"]
    static let serial = Gen<String?>.element(of: pieces).map { $0! }.array(of: 0...6).map { $0.joined() }

    /// `A–Z a–z 0–9 _ -`, and at least one of them.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }

    /// The text a name was made of, read back: a left inverse of ``CuffName/level(_:)`` that, where it holds for every
    /// text, proves that no two texts share a name.
    static func text(of name: String) -> String {
        let pairs = name.split(separator: "_", omittingEmptySubsequences: false)
        if !name.contains("__"), pairs.count == 6, pairs.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) {
            return pairs.joined(separator: ":")
        }
        guard name.contains("__") else { return name }
        if name == "__" { return "" }
        var bytes: [UInt8] = [], rest = Substring(name)
        while let first = rest.first {
            if rest.hasPrefix("__"), let byte = UInt8(rest.dropFirst(2).prefix(2), radix: 16) {
                bytes.append(byte)
                rest = rest.dropFirst(4)
            } else {
                bytes.append(first.asciiValue ?? 0)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("Names cuff-forward gave before escaping are kept: serials of A–Z a–z 0–9 _ - and addresses")
    func keptNames() {
        for serial in ["SN123", "BP-7000_a1", "_lead", "trail_", "x", "-"] { #expect(CuffName.level(serial) == serial) }
        #expect(CuffName.level("C4:F3:12:53:F2:C9") == "C4_F3_12_53_F2_C9")
        #expect(CuffName.level("c4:f3:12:53:f2:c9") == "c4_f3_12_53_f2_c9")
        #expect(CuffName.of(["serial": "", "address": "C4:F3:12:53:F2:C9"]) == "C4_F3_12_53_F2_C9")
        #expect(CuffName.of(["serial": "SN123", "address": "C4:F3:12:53:F2:C9"]) == "SN123")
        #expect(CuffName.of([:]) == "unknown")
    }

    @Test("Serials that all used to be SN_1 have names of their own; so do the few kept names would confuse with escapes and addresses")
    func escapedNames() {
        let names = ["SN_1", "SN/1", "SN+1", "SN#1", "SN 1", "SN:1"].map(CuffName.level)
        #expect(names == ["SN_1", "SN__2F1", "SN__2B1", "SN__231", "SN__201", "SN__3A1"])
        #expect(CuffName.level("SN__2F1") == "SN__5F__5F2F1")
        #expect(CuffName.level("C4_F3_12_53_F2_C9") == "C4__5FF3__5F12__5F53__5FF2__5FC9")
        #expect(CuffName.level("Ärzte") == "__C3__84rzte")
        #expect(CuffName.level("") == "__")
        #expect(CuffName.level("C4:F3:12:53:F2") == "C4__3AF3__3A12__3A53__3AF2")
        #expect(CuffName.level("Ｃ4:F3:12:53:F2:C9").hasPrefix("__EF__BC__A34__3A"), "a fullwidth letter is no hexadecimal digit")
    }

    @Test("Any serial's name is a valid topic level and Home Assistant id, and reads back to the serial")
    func namesReadBack() async {
        await propertyCheck(count: 2_000, input: Self.serial) { serial in
            let name = CuffName.level(serial)
            #expect(Self.isValidName(name), "\(serial.debugDescription) → \(name)")
            #expect(Self.text(of: name) == serial, "\(serial.debugDescription) → \(name)")
        }
    }

    @Test("Distinct serials never share a name")
    func distinctSerialsDistinctNames() async {
        await propertyCheck(count: 300, input: Self.serial.array(of: 2...40)) { serials in
            let names = Dictionary(grouping: Set(serials), by: CuffName.level)
            #expect(names.values.allSatisfy { $0.count == 1 }, "\(names.filter { $0.value.count > 1 })")
        }
    }

    @Test("Every topic a user's name goes into has only valid levels: no empty one, no +, # or NUL, the name one level")
    func topicLevels() async {
        let topics = MQTTTopics(prefix: "cuffd", discoveryPrefix: "homeassistant")
        await propertyCheck(count: 500, input: Self.serial, Gen.uint8()) { serial, id in
            let user = CuffUser(cuff: CuffName.level(serial), user: "user\(id)")
            let published = topics.state(user) + "|" + topics.history(user) + "|" + topics.config("binary_sensor", user, "irregular_pulse")
            for topic in published.split(separator: "|") {
                let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
                #expect(levels.count == (topic.hasSuffix("/config") ? 5 : 4), "\(topic)")
                #expect(levels.allSatisfy { !$0.isEmpty && !$0.contains(where: { "+#\0".contains($0) }) }, "\(topic)")
            }
            #expect(Self.isValidName(user.node), "\(user.node)")
        }
    }

    @Test("Users stored under a name from before the escaping are renamed, to have their old entities removed; the others are kept as they are")
    func renamedUsers() {
        func user(_ cuff: String, serial: String) -> PublishedUser {
            PublishedUser(cuff: cuff, user: "user1", person: nil, device: ["serial": serial, "address": "C4:F3:12:53:F2:C9"], newest: 5)
        }
        let stored = [user("SN_1", serial: "SN/1"), user("SN123", serial: "SN123"), user("C4_F3_12_53_F2_C9", serial: "")]
        let (users, renamed) = PublishedUsers.renamed(Dictionary(uniqueKeysWithValues: stored.map { ($0.key, $0) }))
        #expect(renamed.map(\.from) == [CuffUser(cuff: "SN_1", user: "user1")])
        #expect(renamed.map(\.to) == [CuffUser(cuff: "SN__2F1", user: "user1")])
        #expect(Set(users.keys.map(\.cuff)) == ["SN__2F1", "SN123", "C4_F3_12_53_F2_C9"])
        #expect(users[CuffUser(cuff: "SN__2F1", user: "user1")]?.newest == 5)
    }
}
