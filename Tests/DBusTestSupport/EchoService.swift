import DBus

/// `org.cuffd.Test.Echo1`, the test peer our own connections export: `Echo(v) -> v` and
/// `EmitSignals(u, ay)`, the same interface as Tests/Interop/echo_peer.py (dbus-fast).
public enum EchoService {
    public static let name = "org.cuffd.Test.Peer"
    public static let path: DBusObjectPath = "/org/cuffd/Test"
    public static let interfaceName = "org.cuffd.Test.Echo1"

    public static var interface: DBusInterface {
        DBusInterface(interfaceName, methods: [
            .init("Echo", inputs: [.init("value", .variant)], outputs: [.init("value", .variant)]) { call in
                call.arguments
            },
            .init("EmitSignals", inputs: [.init("count", .uint32), .init("payload", .array(.byte))]) { call in
                let count: UInt32 = try call.argument(0)
                let payload: [UInt8] = try call.argument(1)
                for index in 0..<count {
                    try call.connection.emitSignal(path, interfaceName, "Tick", [.uint32(index), .bytes(payload)])
                }
                return []
            },
        ], signals: [.init("Tick", [.init("index", .uint32), .init("payload", .array(.byte))])])
    }
}
