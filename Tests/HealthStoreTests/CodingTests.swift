import Foundation
import Testing
@testable import HealthStore

/// The engine's own flat JSON for metadata: every kind round-trips, escapes included, read back by
/// JSONSerialization.
@Suite struct CodingTests {
    static let score = MetadataKey("Score", kind: .double)
    static let registry = Dictionary(uniqueKeysWithValues: (MetadataKey.standard + [score]).map { ($0.name, $0) })

    @Test(arguments: [0.1, -2.5e-7, 1e300, 120.0, 5])
    func metadataRoundTrips(_ score: Double) throws {
        var metadata = HealthMetadata()
        metadata[Self.score] = .double(score)
        metadata[.externalUUID] = .string("tab\t \"q\" back\\slash é \u{1} 🫀")
        metadata.wasUserEntered = false
        metadata.coincidentTimeOffsetMs = Int64.min
        metadata.deviceTimestamp = Date(timeIntervalSince1970: -1_000.5)
        let json = try #require(SQLiteCoding.json(metadata))
        #expect(SQLiteCoding.metadata(json, registry: Self.registry) == metadata)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object.count == 5)
    }

    @Test func foreignJSONKeepsTheKnownKeys() {
        let json = #"{ "DeviceUserId" : 3, "Nested": {"a": 1} }"#
        #expect(SQLiteCoding.metadata(json, registry: Self.registry).deviceUserID == 3)
        #expect(SQLiteCoding.metadata("not json", registry: Self.registry) == HealthMetadata())
    }
}

extension CodingTests {
    @Test func syncKeysStayOutOfTheJSON() throws {
        var metadata = HealthMetadata()
        metadata.syncIdentifier = "x"
        metadata.syncVersion = 3
        #expect(SQLiteCoding.json(metadata) == nil)
        metadata.deviceUserID = 1
        #expect(SQLiteCoding.json(metadata) == #"{"DeviceUserId":1}"#)
    }
}

extension CodingTests {
    @Test("A JSON string's escapes, byte for byte: quote, backslash, the named controls, other controls as \\u00XX, the rest as it is")
    func stringEscapes() {
        var out = ""
        SQLiteCoding.appendString("a\"b\\c\n\r\t\u{1}\u{1F} é 🫀", to: &out)
        #expect(out == #""a\"b\\c\n\r\t\u0001\u001f é 🫀""#)
        out = ""
        SQLiteCoding.appendString("plain", to: &out)
        #expect(out == #""plain""#)
    }
}
