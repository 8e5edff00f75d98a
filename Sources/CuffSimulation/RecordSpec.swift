/// One record a BPS 1.1 cuff keeps in its memory and reports through the Record Access Control Point
/// 0x2A52 (docs/reference/GATT-HEALTH.md §7–§8): its sequence number and its Enhanced Blood Pressure Measurement 0x2B34
/// value.
public struct RecordSpec: Decodable, Sendable, Equatable {
    /// The record's sequence number, unique on the cuff (uint16, GSS: "starts at 0 and loops back").
    public var sequence: UInt16
    /// The 0x2B34 value the record holds.
    public var value: HexValue

    public init(sequence: UInt16, value: HexValue) {
        self.sequence = sequence
        self.value = value
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case sequence, value = "hex" }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let sequence = try container.decodeInteger(UInt16.self, forKey: .sequence) else {
            throw DecodingError.keyNotFound(CodingKeys.sequence, .init(codingPath: container.codingPath, debugDescription: "is missing"))
        }
        self.sequence = sequence
        value = try container.decode(HexValue.self, forKey: .value)
    }
}
