import FoundationEssentials
import Glibc

/// A value in a Home Assistant discovery config (``HomeAssistantDiscovery``): text, a flag, a list or an object, written
/// as JSON by FoundationEssentials' `JSONEncoder` — JSONSerialization, which takes `Any`, is Foundation's, and
/// cuff-forward links FoundationEssentials only (Benchmarks/RESULTS.md, "cuff-forward's idle RSS").
enum DiscoveryValue: Encodable, Equatable, ExpressibleByStringInterpolation, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    case string(String)
    case boolean(Bool)
    case array([DiscoveryValue])
    case object([String: DiscoveryValue])

    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .boolean(value) }
    init(arrayLiteral elements: DiscoveryValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, DiscoveryValue)...) { self = .object(Dictionary(elements) { $1 }) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .boolean(let flag): try container.encode(flag)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }

    /// The config as JSON, its keys sorted (the same bytes each time it is published) and `/` not escaped.
    var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map(Array.init) ?? []
    }
}
