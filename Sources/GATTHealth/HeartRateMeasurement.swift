/// Heart Rate Measurement 0x2A37 (notify; gatt-xml `heart_rate_measurement.xml`; docs/reference/GATT-HEALTH.md §9):
///
/// | offset | size | field | present when |
/// |---|---|---|---|
/// | 0 | 1 | Flags | always |
/// | 1 | 1 or 2 | Heart Rate, bpm (uint8, or uint16 if bit 0) | always |
/// | next | 2 | Energy Expended, kJ | bit 3 |
/// | next | n × 2 | RR-Intervals, 1/1024 s, oldest first | bit 4 ("one or more") |
///
/// Bits 1–2: sensor contact; bits 5–7 RFU. The required length counts one RR-Interval when bit 4 is set,
/// so an RR flag with no RR bytes is malformed (vector HRM-S5, Nordic's strict reading). An odd byte after
/// the RR pairs is ignored and counted (WebBluetoothCG/web-bluetooth #493). ``RRIntervals`` keeps up to
/// sixteen intervals inline; a longer list (large ATT MTU only) counts the rest in ``omittedRRIntervalCount``.
public struct HeartRateMeasurement: Hashable, Sendable, GATTCharacteristicValue {
    public static let characteristic = HealthCharacteristic.heartRateMeasurement

    /// Flags bits 1–2.
    public enum SensorContact: String, Hashable, Sendable {
        /// 0 or 1: the sensor cannot tell.
        case notSupported
        /// 2: supported, no skin contact.
        case notDetected
        /// 3: supported and in contact.
        case detected
    }

    // Stored widest first, so that no padding lies between the fields (a copy of the value moves none).

    /// The RR-Intervals as read; empty when flag bit 4 is clear.
    @usableFromInline var intervals: RRIntervals
    /// Intervals the frame carried beyond ``RRIntervals/capacity`` (after the sixteen oldest); 0 normally.
    public var omittedRRIntervalCount: Int
    /// Bytes after the last whole field: ignored, and counted here.
    public var trailingByteCount: Int
    /// Beats per minute, unsigned (255 is a valid uint8 value).
    public var heartRate: UInt16
    /// The Energy Expended field as read; 0 when flag bit 3 is clear.
    @usableFromInline var energyField: UInt16
    /// The flags byte as received; the properties below read it.
    @usableFromInline var flags: UInt8

    /// True when the value was sent as uint16 (flag bit 0).
    public var isSixteenBitValue: Bool { flags & 0x01 != 0 }

    /// Flags bits 1–2.
    public var sensorContact: SensorContact {
        switch flags >> 1 & 0x03 {
        case 3: .detected
        case 2: .notDetected
        default: .notSupported
        }
    }

    /// Flag bits 5–7 (RFU) as received.
    public var reservedFlags: UInt8 { flags & 0xE0 }

    /// Kilojoules since the last reset (flag bit 3).
    public var energyExpended: UInt16? { flags & 0x08 != 0 ? energyField : nil }

    /// The RR-Intervals, oldest first; nil when flag bit 4 is clear.
    public var rrIntervals: RRIntervals? { flags & 0x10 != 0 ? intervals : nil }

    /// A measurement to encode; the value goes out as uint16 when it does not fit a byte or when asked.
    public init(
        heartRate: UInt16, sixteenBitValue: Bool = false, sensorContact: SensorContact = .notSupported,
        energyExpended: UInt16? = nil, rrIntervals: RRIntervals? = nil, reservedFlags: UInt8 = 0
    ) {
        let contactBits: UInt8 = switch sensorContact {
        case .notSupported: 0
        case .notDetected: 0x04
        case .detected: 0x06
        }
        flags = (sixteenBitValue || heartRate > UInt8.max ? 0x01 : 0) | contactBits | (energyExpended == nil ? 0 : 0x08)
            | (rrIntervals == nil ? 0 : 0x10) | reservedFlags & 0xE0
        self.heartRate = heartRate
        energyField = energyExpended ?? 0
        intervals = rrIntervals ?? RRIntervals([])
        omittedRRIntervalCount = 0
        trailingByteCount = 0
    }

    @inlinable @inline(__always)
    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        guard _fastPath(!bytes.isEmpty) else { try throwTruncation(Self.characteristic, required: 2, actual: 0) }
        let layout = HeartRateLayout(flags: bytes[0])
        try requireLength(layout.required, of: bytes, for: Self.characteristic)
        // Four intervals or fewer (a strap sends about one a beat, once a second) decode here; a longer list
        // out of line, so that the registers its words need do not cost every frame a stack frame.
        let pairs = layout.rrPairs(in: bytes)
        if _fastPath(pairs <= 4) {
            let intervals = RRIntervals(bytes, from: layout.rrStart, upToFour: pairs)
            self.init(checked: bytes, layout: layout, pairs: pairs, intervals: intervals)
        } else {
            self.init(checkedLongList: bytes)
        }
    }

    /// Decodes a frame already checked against the length its flags require, with more than four intervals.
    @usableFromInline @inline(never)
    init(checkedLongList bytes: UnsafeRawBufferPointer) {
        let layout = HeartRateLayout(flags: bytes[0])
        let pairs = layout.rrPairs(in: bytes)
        let intervals = RRIntervals(bytes, from: layout.rrStart, fourOrMore: Swift.min(pairs, RRIntervals.capacity))
        self.init(checked: bytes, layout: layout, pairs: pairs, intervals: intervals)
    }

    /// The fields of a frame already checked against `layout.required`, with its `pairs` RR-Intervals, the
    /// first of which are `intervals`.
    @inlinable @inline(__always)
    init(checked bytes: UnsafeRawBufferPointer, layout: HeartRateLayout, pairs: Int, intervals: RRIntervals) {
        flags = bytes[0]
        // uint8 or uint16 without a branch: the high byte counts only when flag bit 0 says so.
        heartRate = UInt16(bytes[1]) | UInt16(bytes[1 &+ layout.sixteenBit] & (0 &- (flags & 1))) << 8
        var reader = ByteReader(bytes, offset: 2 &+ layout.sixteenBit)
        energyField = layout.energyLength != 0 ? reader.uint16() : 0
        self.intervals = intervals
        omittedRRIntervalCount = pairs &- intervals.count
        trailingByteCount = bytes.count &- layout.rrStart &- 2 &* pairs
    }

    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 5 + 2 * (rrIntervals?.count ?? 0))
        writer.uint8(flags)
        if isSixteenBitValue { writer.uint16(heartRate) } else { writer.uint8(UInt8(truncatingIfNeeded: heartRate)) }
        if let energyExpended { writer.uint16(energyExpended) }
        for interval in rrIntervals ?? RRIntervals([]) { writer.uint16(interval) }
        return writer.bytes
    }
}
