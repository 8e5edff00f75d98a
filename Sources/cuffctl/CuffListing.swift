import DBus
import Foundation
import TerminalEscaping

/// The `org.cuffd.Cuff1` objects cuffd publishes, as `devices` and `status` show them.
struct CuffListing {
    struct Cuff {
        let properties: DBusProperties
        func text(_ key: String) -> String { ((try? properties.property(key, as: String.self)) ?? nil) ?? "" }
        func flag(_ key: String) -> Bool { ((try? properties.property(key, as: Bool.self)) ?? nil) ?? false }
        var lastReading: Date? {
            ((try? properties.property("LastReading", as: Double.self)) ?? nil).flatMap { $0 > 0 ? Date(timeIntervalSince1970: $0) : nil }
        }

        /// The cuff on one line, what the cuff named itself escaped (``TerminalText``).
        var line: String {
            func shown(_ key: String) -> String { TerminalText.escaped(text(key)) }
            var parts = [shown("Address"), text("Name").isEmpty ? "(no name)" : shown("Name"), shown("State")]
            parts.append(flag("Paired") ? (flag("Trusted") ? "paired, trusted" : "paired, not trusted") : "not paired")
            if !text("Model").isEmpty { parts.append("\(shown("Manufacturer")) \(shown("Model"))".trimmingCharacters(in: .whitespaces)) }
            if let lastReading { parts.append("last reading \(lastReading.formatted(Date.ISO8601FormatStyle(timeZone: .current)))") }
            return parts.joined(separator: "  ")
        }

        var json: JSONValue {
            .object([
                ("address", .string(text("Address"))), ("name", .string(text("Name"))), ("state", .string(text("State"))),
                ("paired", .bool(flag("Paired"))), ("trusted", .bool(flag("Trusted"))), ("connected", .bool(flag("Connected"))),
                ("canStart", .bool(flag("CanStart"))), ("manufacturer", .string(text("Manufacturer"))),
                ("model", .string(text("Model"))), ("serial", .string(text("Serial"))),
                ("lastReading", lastReading.map { .string($0.formatted(Date.ISO8601FormatStyle(timeZone: .current))) } ?? .null),
            ])
        }
    }

    let cuffs: [Cuff]

    init(_ cuffd: CuffdConnection) async throws {
        cuffs = try await cuffd.managedObjects().sorted { $0.key < $1.key }
            .compactMap { $0.value["org.cuffd.Cuff1"].map(Cuff.init) }
    }
}
