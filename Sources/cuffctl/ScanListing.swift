import DBus
import GATTHealth
import TerminalEscaping

/// One cuff of cuffd's `Scan` reply (docs/dbus-api.md), as `cuffctl scan` shows it: the device, then what cuffd
/// recognises it as and whether it reads it (docs/compatibility.md).
struct ScannedDevice {
    let entry: DBusProperties

    func text(_ key: String) -> String { ((try? entry.property(key, as: String.self)) ?? nil) ?? "" }

    /// Its verdict as cuffd sent it; an answer this cuffctl does not know is shown as sent.
    var verdict: String {
        CuffVerdict(word: text("support"), reason: text("reason"))?.sentence ?? "\(text("support")): \(text("reason"))"
    }

    /// `ADDRESS NAME`, the name as the advertiser chose it (escaped: any device in radio range, paired or not), then
    /// an indented line with the model, its state when its advertisement shows one, and the verdict.
    var lines: [String] {
        let model = text("state").isEmpty ? text("model") : "\(text("model")) (\(text("state")))"
        return [TerminalText.escaped("\(text("address")) \(text("name"))"), "  " + TerminalText.escaped("\(model): \(verdict)")]
    }

    var json: JSONValue {
        .object([
            ("address", .string(text("address"))), ("name", entry["name"] == nil ? .null : .string(text("name"))),
            ("model", .string(text("model"))), ("state", .string(text("state"))), ("support", .string(text("support"))),
            ("reason", .string(text("reason"))),
        ])
    }
}
