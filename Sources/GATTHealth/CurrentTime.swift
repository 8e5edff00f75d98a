/// Current Time 0x2A2B of the Current Time Service (gatt-xml `current_time.xml`, `exact_time_256.xml`;
/// docs/reference/GATT-HEALTH.md §10): Date Time, Day of Week, Fractions256, Adjust Reason — 10 bytes. Written to sync
/// a cuff's clock where the cuff allows it (write is optional in CTS 1.1, derdilla #439).
public struct CurrentTime: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.currentTime

    /// Adjust Reason bits (bits 4–7 RFU, kept).
    public struct AdjustReason: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let manualTimeUpdate = Self(rawValue: 1 << 0)
        public static let externalReferenceTimeUpdate = Self(rawValue: 1 << 1)
        public static let changeOfTimeZone = Self(rawValue: 1 << 2)
        public static let changeOfDST = Self(rawValue: 1 << 3)
    }

    public var dateTime: DateTime
    /// 0 unknown, 1 Monday … 7 Sunday, 8–255 RFU.
    public var dayOfWeek: UInt8
    /// 1/256 s.
    public var fractions256: UInt8
    public var adjustReason: AdjustReason

    /// The encoded size: 10 bytes.
    public static let encodedLength = 10

    /// A value to write.
    public init(dateTime: DateTime, dayOfWeek: UInt8, fractions256: UInt8 = 0, adjustReason: AdjustReason = []) {
        self.dateTime = dateTime
        self.dayOfWeek = dayOfWeek
        self.fractions256 = fractions256
        self.adjustReason = adjustReason
    }

    /// The value for a known calendar time, with its ISO day of week computed (Monday = 1).
    public init(dateTime: DateTime, adjustReason: AdjustReason = .manualTimeUpdate) {
        let days = ProlepticGregorian.days(year: Int(dateTime.year), month: Int(dateTime.month), day: Int(dateTime.day))
        // 0000-03-01, day 0 of that count, was a Wednesday (ISO 3).
        let isoWeekday = (days % 7 + 7 + 2) % 7 + 1
        self.init(dateTime: dateTime, dayOfWeek: UInt8(isoWeekday), adjustReason: adjustReason)
    }

    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(Self.encodedLength, of: bytes, for: Self.characteristic)
        var reader = ByteReader(bytes)
        dateTime = reader.dateTime()
        dayOfWeek = reader.uint8()
        fractions256 = reader.uint8()
        adjustReason = AdjustReason(rawValue: reader.uint8())
    }

    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedLength)
        writer.dateTime(dateTime)
        writer.uint8(dayOfWeek)
        writer.uint8(fractions256)
        writer.uint8(adjustReason.rawValue)
        return writer.bytes
    }
}
