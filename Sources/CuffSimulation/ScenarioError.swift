import Foundation

/// Why a scenario file was refused: the JSON path of the field and what is wrong with it.
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
    /// `cuffs[0].timeline[2].hex`; empty for the document itself.
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// A decoding error of `data`, with its JSON path. The decoder says only "not valid JSON" of a document it
    /// cannot parse; Foundation's JSONSerialization then says why and where (a number out of range, nesting too
    /// deep, the character at which the syntax broke).
    init(_ error: DecodingError, data: Data) {
        switch error {
        case let .dataCorrupted(context) where context.codingPath.isEmpty && context.underlyingError == nil:
            var reason = context.debugDescription
            do {
                _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                reason = "not valid JSON: " + ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")
            }
            self.init(path: "", message: reason)
        case let .dataCorrupted(context):
            self.init(path: Self.path(context.codingPath), message: Self.reason(context))
        case let .keyNotFound(key, context):
            self.init(path: Self.path(context.codingPath + [key]), message: "is missing")
        case let .typeMismatch(type, context):
            self.init(path: Self.path(context.codingPath), message: "should be \(Self.jsonName(type))")
        case let .valueNotFound(type, context):
            self.init(path: Self.path(context.codingPath), message: "should be \(Self.jsonName(type)), not null")
        @unknown default:
            self.init(path: "", message: "\(error)")
        }
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// Refuses a step at `after` seconds that comes before the step before it (at `previous`), and moves `previous` on:
    /// a timeline's steps, and a recorded link's, are in time order (docs/cuff-sim.md).
    static func checkTimeOrder(_ after: Double, previous: inout Double, path: String) throws(ScenarioError) {
        guard after >= previous else {
            throw ScenarioError(path: path + ".after", message: "\(after) s comes before the previous step (\(previous) s)")
        }
        previous = after
    }

    private static func reason(_ context: DecodingError.Context) -> String {
        if let underlying = context.underlyingError { return "not valid JSON (\(underlying))" }
        return context.debugDescription
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(into: "") { path, key in
            if let index = key.intValue { path += "[\(index)]" } else { path += path.isEmpty ? key.stringValue : "." + key.stringValue }
        }
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
}
