/// An A&D cuff's state beside its services (`"vendor": "aAndD"`; docs/reference/GATT-HEALTH.md §13.8).
public struct AAndDSpec: Decodable, Sendable, Equatable {
    /// The cuff advertises A&D's service as a UA-1200BLE does in cooperation mode, when it holds no reading it has not
    /// sent (obniz `UA1200BLE.isCooperationMode`); default `false`.
    public var cooperationMode: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case cooperationMode }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cooperationMode = try container.decodeIfPresent(Bool.self, forKey: .cooperationMode) ?? false
    }
}
