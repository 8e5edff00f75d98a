import DBus
import Testing

@Suite("D-Bus signatures, object paths and match rules")
struct SignatureTests {
    @Test("Signatures parse into complete types and print back unchanged",
          arguments: ["y", "a{sv}", "a{oa{sa{sv}}}", "(isv)", "a(yyay)", "aay", "v", "h", "a{ys}", "sa{sv}as", ""])
    func parsesValid(_ text: String) throws {
        let signature = try DBusSignature(text)
        #expect(signature.text == text)
    }

    @Test("Malformed signatures are refused with the rule they break",
          arguments: [("a", "ends inside"), ("a{vs}", "not a basic type"), ("()", "empty struct"), ("{sv}", "outside an array"),
                      ("a{sss}", "exactly two"), ("(i", "not closed"), ("z", "unknown type code"),
                      (String(repeating: "a", count: 33) + "y", "deeper than 32")])
    func refusesInvalid(_ text: String, _ reason: String) {
        #expect {
            try DBusSignature(text)
        } throws: { error in
            (error as? DBusSignatureError)?.reason.contains(reason) == true
        }
    }

    @Test("Object paths follow the specification")
    func objectPaths() throws {
        for valid in ["/", "/org/bluez/hci0", "/org/bluez/hci0/dev_C4_F3_12_53_F2_C9/service0010/char0011"] {
            #expect(DBusObjectPath.isValid(valid), "\(valid)")
        }
        for invalid in ["", "org", "/org/", "//org", "/org//bluez", "/dev-1", "/org/bluez/hci0/dev_C4:F3"] {
            #expect(!DBusObjectPath.isValid(invalid), "\(invalid)")
        }
        let device: DBusObjectPath = "/org/bluez/hci0/dev_C4_F3_12_53_F2_C9"
        #expect(device.isDescendant(of: "/org/bluez"))
        #expect(!device.isDescendant(of: "/org/blue"))
        #expect(device.parent == "/org/bluez/hci0")
        #expect(try DBusObjectPath.root.appending("org") == "/org")
    }

    @Test("Match rules quote apostrophes as '\\'' and match arguments and path namespaces")
    func matchRules() {
        let rule = MatchRule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", pathNamespace: "/org/bluez", arguments: [0: "it's"])
        #expect(rule.description == #"type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez',arg0='it'\''s'"#)

        var signal = DBusMessage.signal(path: "/org/bluez/hci0/dev_X", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", arguments: [.string("it's")])
        #expect(rule.matches(signal))
        signal.path = "/org/bluezz"
        #expect(!rule.matches(signal))

        let added = MatchRule(member: "InterfacesAdded", pathArguments: [0: "/org/bluez/"])
        let message = DBusMessage.signal(path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded", arguments: [.objectPath("/org/bluez/hci0")])
        #expect(added.matches(message))
        let other = DBusMessage.signal(path: "/", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded", arguments: [.objectPath("/org/other")])
        #expect(!added.matches(other))
    }

    @Test("Typed decoding names both types on a mismatch")
    func typedDecoding() throws {
        let value: DBusValue = .dictionary(key: .string, value: .variant, [DBusDictionaryEntry(.string("RSSI"), .variant(.int16(-60)))])
        let properties = try value.decode(DBusProperties.self)
        #expect(try properties.property("RSSI", as: Int16.self) == -60)
        #expect(try properties.property("Name", as: String.self) == nil)
        #expect {
            try properties.property("RSSI", as: String.self)
        } throws: { error in
            (error as? DBusTypeMismatch)?.description == "property RSSI: expected s, found n"
        }
        #expect(try DBusValue.bytes([1, 2]).decode([UInt8].self) == [1, 2])
        #expect(throws: DBusTypeMismatch.self) { try DBusValue.array(.string, [.uint32(1)]).validate() }
    }

    @Test("An empty array keeps its element type: [String]() is as, not ay")
    func emptyArraysKeepTheirType() {
        #expect([String]().dbusValue.type.signature == "as")
        #expect([UInt32]().dbusValue.type.signature == "au")
        #expect([UInt8]().dbusValue == .bytes([]))
        #expect(["a"].dbusValue == .array(.string, [.string("a")]))
    }
}
