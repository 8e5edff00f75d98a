import DBus
import DBusTestSupport
import Foundation
import FoundationXML
import Testing

/// Our layer against systemd's busctl (sd-bus) and GLib's gdbus.
@Suite("Interop: busctl and gdbus")
struct BusctlInteropTests {
    /// busctl's argument syntax for a value, what our service must receive, and busctl's JSON of the echo.
    static let cases: [(arguments: [String], expected: DBusValue)] = [
        (["y", "201"], .byte(201)),
        (["b", "true"], .boolean(true)),
        (["n", "-32768"], .int16(-32768)),
        (["q", "65535"], .uint16(65535)),
        (["i", "-2147483648"], .int32(-2_147_483_648)),
        (["u", "4294967295"], .uint32(4_294_967_295)),
        (["x", "-9007199254740991"], .int64(-9_007_199_254_740_991)),
        (["t", "9007199254740991"], .uint64(9_007_199_254_740_991)),
        (["d", "-120.5"], .double(-120.5)),
        (["s", "systolic ✓"], .string("systolic ✓")),
        (["o", "/org/bluez/hci0"], .objectPath("/org/bluez/hci0")),
        (["g", "a{sv}"], .signature("a{sv}")),
        (["ay", "3", "30", "122", "0"], .bytes([30, 122, 0])),
        (["as", "2", "a", "b"], .array(.string, [.string("a"), .string("b")])),
        (["ad", "2", "118", "-0.5"], .doubles([118, -0.5])),
        (["ax", "2", "-1", "9007199254740991"], .int64s([-1, 9_007_199_254_740_991])),
        (["a{sv}", "1", "RSSI", "n", "-61"], .dictionary(key: .string, value: .variant, [DBusDictionaryEntry(.string("RSSI"), .variant(.int16(-61)))])),
        (["(isv)", "-1", "x", "u", "7"], .structure([.int32(-1), .string("x"), .variant(.uint32(7))])),
        (["a(qv)", "1", "76", "ay", "2", "1", "2"], .array(.structure([.uint16, .variant]), [.structure([.uint16(76), .variant(.bytes([1, 2]))])])),
    ]

    @Test("Each type busctl sends arrives typed as sent, and busctl reads our echo back unchanged")
    func busctlCalls() async throws {
        try #require(ExternalCommand.exists("busctl"))
        let (bus, server) = try await InteropPeers.echoService()
        defer { server.close() }
        let received = Received()
        await server.export([DBusInterface("org.cuffd.Test.Record1", methods: [
            .init("Record", inputs: [.init("value", .variant)]) { call in
                received.append(call.arguments[0])
                return []
            },
        ])], at: EchoService.path)

        for (arguments, expected) in Self.cases {
            let record = try await InteropPeers.busctl(bus, ["call", "--", EchoService.name, EchoService.path.text, "org.cuffd.Test.Record1", "Record", "v"] + arguments)
            #expect(record.status == 0, "\(arguments): \(record.standardError)")
            #expect(received.last == .variant(expected), "\(arguments)")

            let echo = try await InteropPeers.busctl(bus, ["--json=short", "call", "--", EchoService.name, EchoService.path.text, EchoService.interfaceName, "Echo", "v"] + arguments)
            #expect(echo.status == 0, "\(arguments): \(echo.standardError)")
            // `--` ends busctl's options, so negative numbers are arguments.
            let json = (try? JSONSerialization.jsonObject(with: Data(echo.standardOutput.utf8))) as? [String: Any]
            let variant = (json?["data"] as? [Any])?.first as? [String: Any]
            #expect(variant?["type"] as? String == expected.type.signature, "\(arguments): \(echo.standardOutput)")
            let sent = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: ["v": Self.json(expected)]))
            let back = try JSONSerialization.jsonObject(with: JSONSerialization.data(withJSONObject: ["v": variant?["data"] ?? NSNull()]))
            #expect((sent as? NSDictionary) == (back as? NSDictionary), "\(arguments): \(echo.standardOutput)")
        }
    }

    /// busctl's JSON for a value: containers as arrays/objects, variants as {type, data}.
    static func json(_ value: DBusValue) -> Any {
        switch value {
        case .byte(let v): Int(v)
        case .boolean(let v): v
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(v)
        case .double(let v): v
        case .string(let v): v
        case .objectPath(let v): v.text
        case .signature(let v): v.description
        case .unixFD: NSNull()
        case .bytes(let v): v.map { Int($0) }
        case .doubles(let v): v
        case .int64s(let v): v.map { Int($0) }
        case .strings(let v): v
        case .array(_, let elements): elements.map(json)
        case .structure(let fields): fields.map(json)
        case .dictionary(_, _, let entries):
            Dictionary(uniqueKeysWithValues: entries.map { entry -> (String, Any) in
                guard case .string(let key) = entry.key else { return ("\(entry.key)", json(entry.value)) }
                return (key, json(entry.value))
            })
        case .variant(let inner): ["type": inner.type.signature, "data": json(inner)]
        }
    }

    @Test("busctl and gdbus introspect our objects: interfaces, typed arguments, properties, signals, children")
    func introspection() async throws {
        try #require(ExternalCommand.exists("busctl"))
        try #require(ExternalCommand.exists("gdbus"))
        let (bus, server) = try await InteropPeers.echoService()
        defer { server.close() }
        await server.addObjectManager(at: "/org/cuffd")
        await server.export([DBusInterface("org.cuffd.Test.Cuff1", properties: [
            .init("Address", "C4:F3:12:53:F2:C9"),
            .init("Trusted", false, access: .readwrite) { value, _ in value },
        ])], at: "/org/cuffd/cuff_C4F31253F2C9")

        let xml = try await InteropPeers.busctl(bus, ["introspect", "--xml-interface", EchoService.name, EchoService.path.text])
        #expect(xml.status == 0, "\(xml.standardError)")
        let document = try XMLDocument(xmlString: xml.standardOutput)
        let echoArguments = try document.nodes(forXPath: "/node/interface[@name='org.cuffd.Test.Echo1']/method[@name='Echo']/arg")
            .compactMap { $0 as? XMLElement }.map { "\($0.attribute(forName: "direction")?.stringValue ?? "in"):\($0.attribute(forName: "type")?.stringValue ?? "")" }
        #expect(echoArguments == ["in:v", "out:v"])
        let tick = try document.nodes(forXPath: "/node/interface[@name='org.cuffd.Test.Echo1']/signal[@name='Tick']/arg/@type").map { $0.stringValue ?? "" }
        #expect(tick == ["u", "ay"])
        let standard = try document.nodes(forXPath: "/node/interface/@name").compactMap(\.stringValue)
        #expect(Set(standard).isSuperset(of: ["org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable", "org.cuffd.Test.Echo1"]))

        let table = try await InteropPeers.busctl(bus, ["introspect", EchoService.name, "/org/cuffd/cuff_C4F31253F2C9"])
        #expect(table.standardOutput.contains(#".Address"#) && table.standardOutput.contains(#""C4:F3:12:53:F2:C9""#))
        #expect(table.standardOutput.split(separator: "\n").contains { $0.contains(".Trusted") && $0.contains("writable") })

        let tree = try await InteropPeers.busctl(bus, ["tree", "--list", EchoService.name])
        #expect(tree.standardOutput.split(separator: "\n").map(String.init).contains("/org/cuffd/cuff_C4F31253F2C9"))

        let managed = try await InteropPeers.busctl(bus, ["--json=short", "call", EchoService.name, "/org/cuffd", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"])
        #expect(managed.standardOutput.contains(#""/org/cuffd/cuff_C4F31253F2C9":{"org.cuffd.Test.Cuff1":"#), "\(managed.standardOutput)")

        let set = try await InteropPeers.busctl(bus, ["set-property", EchoService.name, "/org/cuffd/cuff_C4F31253F2C9", "org.cuffd.Test.Cuff1", "Trusted", "b", "true"])
        #expect(set.status == 0, "\(set.standardError)")
        let get = try await InteropPeers.busctl(bus, ["get-property", EchoService.name, "/org/cuffd/cuff_C4F31253F2C9", "org.cuffd.Test.Cuff1", "Trusted"])
        #expect(get.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "b true")

        let gdbus = try await ExternalCommand.runDetached("gdbus", ["introspect", "--address", bus.address, "--dest", EchoService.name, "--object-path", EchoService.path.text])
        #expect(gdbus.status == 0, "\(gdbus.standardError)")
        #expect(gdbus.standardOutput.contains("Echo(in  v value,"))
        #expect(gdbus.standardOutput.contains("signal Tick") || gdbus.standardOutput.contains("Tick(u index,"))
    }
}

/// Values a handler received, in order.
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [DBusValue] = []
    func append(_ value: DBusValue) { lock.withLock { values.append(value) } }
    var last: DBusValue? { lock.withLock { values.last } }
}
