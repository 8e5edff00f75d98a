/// Any key of a JSON object, so that every key present can be listed.
struct AnyJSONKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// Refuses an object holding a key that `Keys` does not name (docs/cuff-sim.md): a misspelt field would
    /// otherwise be ignored, and the scenario would quietly test something else.
    func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let container = try container(keyedBy: AnyJSONKey.self)
        let known = Keys.allCases.map(\.stringValue)
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "is not a field here; expected \(known.joined(separator: ", "))")
        }
    }
}

extension KeyedDecodingContainer {
    /// A whole number that must fit `T`. Read as a JSON number first: Foundation's decoder reports a number too
    /// large for the type without the field's path, as if the whole document were not JSON.
    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let number = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard number == number.rounded(), let value = T(exactly: number) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must be a whole number from \(T.min) to \(T.max), not \(number.formatted(.number.grouping(.never)))")
        }
        return value
    }
}
