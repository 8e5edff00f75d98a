import JSONEscaping

/// JSON text (RFC 8259) written directly, for the one message cuff-forward writes per reading: Foundation's
/// JSONSerialization, through `[String: Any]`, cost about 150 µs a reading (Benchmarks/RESULTS.md, "Publishing a
/// backlog to MQTT"). Members are written in the order given; the caller gives them sorted.
enum JSONText {
    /// An object of `members`, each value already JSON text.
    static func object(_ members: KeyValuePairs<String, String>) -> String {
        var text = "{"
        for (index, member) in members.enumerated() {
            if index > 0 { text += "," }
            text += string(member.key) + ":" + member.value
        }
        return text + "}"
    }

    /// A string, escaped as RFC 8259 §7 says (``JSONString``).
    static func string(_ value: String) -> String { JSONString.quoted(value) }

    /// A number: whole numbers without a fraction (`120`, not `120.0`); `null` for NaN and infinities, which JSON lacks.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func number(_ value: Double?) -> String { value.map(number) ?? "null" }
    static func string(_ value: String?) -> String { value.map(string) ?? "null" }
    static func boolean(_ value: Bool) -> String { value ? "true" : "false" }
}
