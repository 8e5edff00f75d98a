import GATTHealth

/// A cuff's clock, served on Current Time 0x2A2B (docs/reference/GATT-HEALTH.md §10), or taken as a Date Time 0x2A08
/// written into the Blood Pressure service (A&D, §13.8): where it starts and whether a client may set it (CTS 1.1 makes
/// writing optional, derdilla #439).
public struct ClockSpec: Decodable, Sendable, Equatable {
    /// The cuff's local wall-clock time when cuff-sim starts (`YYYY-MM-DDTHH:MM:SS`, no zone).
    public var start: DateTime
    /// Whether 0x2A2B has the `write` property; default true.
    public var writable: Bool
    /// Where the clock is set: Current Time 0x2A2B (`"2A2B"`, the default; needs 1805), or a write-only Date Time
    /// 0x2A08 in 0x1810 (`"2A08"`, needs 1810).
    public var characteristic: HealthCharacteristic

    enum CodingKeys: String, CodingKey, CaseIterable { case start, writable, characteristic }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .start)
        guard let start = Self.dateTime(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .start, in: container, debugDescription: "\"\(text)\" is not a calendar time like 2021-01-01T00:00:00")
        }
        self.start = start
        writable = try container.decodeIfPresent(Bool.self, forKey: .writable) ?? true
        let named = try container.decodeIfPresent(String.self, forKey: .characteristic) ?? "2A2B"
        guard let number = BluetoothUUID.shortNumber(named), let characteristic = HealthCharacteristic(rawValue: number),
              [.currentTime, .dateTime].contains(characteristic) else {
            throw DecodingError.dataCorruptedError(
                forKey: .characteristic, in: container, debugDescription: "\"\(named)\" is not 2A2B (Current Time) or 2A08 (Date Time)")
        }
        self.characteristic = characteristic
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS` into a known calendar time; nil for anything else.
    static func dateTime(_ text: String) -> DateTime? {
        let fields = text.split(separator: "T", omittingEmptySubsequences: false)
        guard fields.count == 2 else { return nil }
        let date = fields[0].split(separator: "-", omittingEmptySubsequences: false).compactMap { Int($0) }
        let time = fields[1].split(separator: ":", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard date.count == 3, time.count == 3, (0...9999).contains(date[0]),
              (date[1...] + time).allSatisfy({ (0...255).contains($0) }) else { return nil }
        let value = DateTime(
            year: UInt16(date[0]), month: UInt8(date[1]), day: UInt8(date[2]),
            hours: UInt8(time[0]), minutes: UInt8(time[1]), seconds: UInt8(time[2]))
        return value.isKnown ? value : nil
    }
}
