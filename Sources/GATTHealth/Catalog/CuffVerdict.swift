/// Whether cuffd reads a kind of cuff, as `cuffctl scan` says it before anyone pairs and docs/compatibility.md
/// tabulates it.
public enum CuffVerdict: Hashable, Sendable {
    /// Read as the profiles say, nothing to know.
    case supported
    /// Read, with something its owner should know (how it pairs, what it sends, what cuffd does differently).
    case quirk(String)
    /// Not read, and why; `cuffctl pair` refuses it with this reason (exit 76).
    case unsupported(String)

    /// One word for programs: `supported`, `quirk` or `unsupported` (the D-Bus `Scan` reply, docs/dbus-api.md).
    public var word: String {
        switch self {
        case .supported: "supported"
        case .quirk: "quirk"
        case .unsupported: "unsupported"
        }
    }

    /// The quirk or the reason; empty for a plain `supported`.
    public var reason: String {
        switch self {
        case .supported: ""
        case let .quirk(text), let .unsupported(text): text
        }
    }

    /// For people: `supported`, `supported, with quirk: …` or `not supported: …`, the words docs/compatibility.md's
    /// "what works" column starts with.
    public var sentence: String {
        switch self {
        case .supported: "supported"
        case let .quirk(text): "supported, with quirk: " + text
        case let .unsupported(text): "not supported: " + text
        }
    }

    /// The verdict a program sent as ``word`` and ``reason``; nil for a word that is none of the three.
    public init?(word: String, reason: String) {
        switch word {
        case "supported": self = .supported
        case "quirk": self = .quirk(reason)
        case "unsupported": self = .unsupported(reason)
        default: return nil
        }
    }
}
