/// `org.freedesktop.DBus.Introspectable` XML (D-Bus Specification, "Introspection Data Format").
enum Introspection {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    static func xml(path: DBusObjectPath, interfaces: [DBusInterface], children: [String], isManager: Bool) -> String {
        var lines = [doctype, "<node>"]
        var standard = [introspectable, peer]
        if !interfaces.isEmpty { standard.append(properties) }
        if isManager { standard.append(objectManager) }
        lines += standard.flatMap(describe)
        lines += interfaces.flatMap(describe)
        lines += children.map { "  <node name=\"\(escape($0))\"/>" }
        lines.append("</node>")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func describe(_ interface: DBusInterface) -> [String] {
        var lines = ["  <interface name=\"\(escape(interface.name))\">"]
        for method in interface.methods {
            lines.append("    <method name=\"\(escape(method.name))\">")
            lines += method.inputs.map { argument($0, direction: "in") }
            lines += method.outputs.map { argument($0, direction: "out") }
            lines.append("    </method>")
        }
        for signal in interface.signals {
            lines.append("    <signal name=\"\(escape(signal.name))\">")
            lines += signal.arguments.map { argument($0, direction: nil) }
            lines.append("    </signal>")
        }
        for property in interface.properties {
            lines.append("    <property name=\"\(escape(property.name))\" type=\"\(escape(property.type.signature))\" access=\"\(property.access.rawValue)\"/>")
        }
        lines.append("  </interface>")
        return lines
    }

    private static func argument(_ argument: DBusInterface.Argument, direction: String?) -> String {
        let name = argument.name.isEmpty ? "" : " name=\"\(escape(argument.name))\""
        let direction = direction.map { " direction=\"\($0)\"" } ?? ""
        return "      <arg\(name) type=\"\(escape(argument.type.signature))\"\(direction)/>"
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    // The standard interfaces every exported object answers; handlers live in the connection.
    private static let noop: DBusInterface.Handler = { _ in [] }
    private static let introspectable = DBusInterface(StandardInterface.introspectable, methods: [
        .init("Introspect", outputs: [.init("xml_data", .string)], handler: noop),
    ])
    private static let peer = DBusInterface(StandardInterface.peer, methods: [
        .init("Ping", handler: noop),
        .init("GetMachineId", outputs: [.init("machine_uuid", .string)], handler: noop),
    ])
    private static let properties = DBusInterface(StandardInterface.properties, methods: [
        .init("Get", inputs: [.init("interface_name", .string), .init("property_name", .string)], outputs: [.init("value", .variant)], handler: noop),
        .init("GetAll", inputs: [.init("interface_name", .string)], outputs: [.init("props", .dictionary(key: .string, value: .variant))], handler: noop),
        .init("Set", inputs: [.init("interface_name", .string), .init("property_name", .string), .init("value", .variant)], handler: noop),
    ], signals: [
        .init("PropertiesChanged", [.init("interface_name", .string), .init("changed_properties", .dictionary(key: .string, value: .variant)), .init("invalidated_properties", .array(.string))]),
    ])
    private static let objectManager = DBusInterface(StandardInterface.objectManager, methods: [
        .init("GetManagedObjects", outputs: [.init("objects", .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant))))], handler: noop),
    ], signals: [
        .init("InterfacesAdded", [.init("object_path", .objectPath), .init("interfaces_and_properties", .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)))]),
        .init("InterfacesRemoved", [.init("object_path", .objectPath), .init("interfaces", .array(.string))]),
    ])
}
