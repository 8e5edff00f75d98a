/// Date Time 0x2A08: the cuff's local wall clock, with no time zone (gatt-xml `date_time.xml`;
/// docs/reference/GATT-HEALTH.md §10). Fields are kept as sent; a zero year, month or day means "unknown".
public struct DateTime: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.dateTime

    /// The fields as sent, little-endian in one word: year in bits 0–15, month 16–23, day 24–31, hours
    /// 32–39, minutes 40–47, seconds 48–55; bits 56–63 are 0. A decoder reads the seven bytes with two
    /// loads and stores them with one move.
    @usableFromInline var fields: UInt64

    /// 1582–9999; 0 = unknown.
    public var year: UInt16 {
        get { UInt16(truncatingIfNeeded: fields) }
        set { fields = fields & ~0xFFFF | UInt64(newValue) }
    }
    /// 1–12; 0 = unknown.
    public var month: UInt8 { get { byte(at: 16) } set { setByte(newValue, at: 16) } }
    /// 1–31; 0 = unknown.
    public var day: UInt8 { get { byte(at: 24) } set { setByte(newValue, at: 24) } }
    /// 0–23.
    public var hours: UInt8 { get { byte(at: 32) } set { setByte(newValue, at: 32) } }
    /// 0–59.
    public var minutes: UInt8 { get { byte(at: 40) } set { setByte(newValue, at: 40) } }
    /// 0–59.
    public var seconds: UInt8 { get { byte(at: 48) } set { setByte(newValue, at: 48) } }

    /// The time stamp as sent, field by field.
    @inlinable
    public init(year: UInt16, month: UInt8, day: UInt8, hours: UInt8, minutes: UInt8, seconds: UInt8) {
        fields = UInt64(year) | UInt64(month) << 16 | UInt64(day) << 24 | UInt64(hours) << 32
            | UInt64(minutes) << 40 | UInt64(seconds) << 48
    }

    /// The time stamp whose seven bytes, as sent, are the low 56 bits of `fields`.
    @inlinable
    init(fields: UInt64) {
        self.fields = fields
    }

    private func byte(at shift: Int) -> UInt8 { UInt8(truncatingIfNeeded: fields >> shift) }

    private mutating func setByte(_ value: UInt8, at shift: Int) {
        fields = fields & ~(0xFF << shift) | UInt64(value) << shift
    }

    /// The encoded size: 7 bytes.
    public static let encodedLength = 7

    /// Decodes 7 bytes; more are counted in no field and ignored.
    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        try requireLength(Self.encodedLength, of: bytes, for: .dateTime)
        var reader = ByteReader(bytes)
        self = reader.dateTime()
    }

    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedLength)
        writer.dateTime(self)
        return writer.bytes
    }

    /// True when every field is a real calendar value: year 1582–9999, month 1–12, a day that exists in
    /// that month, hours 0–23, minutes and seconds 0–59. A time stamp that is not known is "unknown",
    /// never a reason to reject the reading (docs/reference/GATT-HEALTH.md §13.4).
    public var isKnown: Bool {
        (1582 ... 9999).contains(year) && (1 ... 12).contains(month) && day >= 1
            && day <= Self.daysInMonth(month, of: year) && hours < 24 && minutes < 60 && seconds < 60
    }

    /// `YYYY-MM-DDTHH:MM:SS` (local wall clock, no offset) when the time stamp is known, else nil.
    public var isoString: String? {
        guard isKnown else { return nil }
        return pad(Int(year), 4) + "-" + pad(Int(month), 2) + "-" + pad(Int(day), 2) + "T"
            + pad(Int(hours), 2) + ":" + pad(Int(minutes), 2) + ":" + pad(Int(seconds), 2)
    }

    /// Days in `month` of `year` in the proleptic Gregorian calendar.
    static func daysInMonth(_ month: UInt8, of year: UInt16) -> UInt8 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// `value` in decimal, zero-padded on the left to `width` digits.
func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
