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
/// sixteen intervals; a longer list (large ATT MTU only) counts the rest in ``omittedRRIntervalCount``.
///
/// A view of the frame: decoding checks the length the flags require — the only way a frame can be
/// malformed — and keeps the frame's first ``HeartRateFrame/capacity`` bytes inline, which hold every field
/// up to the sixteenth interval; each property reads its field from them when asked. So a decode is a
/// length check and five word moves, with nothing allocated; a reader of every field pays for each once.
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

    /// The frame as received, or as ``init(heartRate:sixteenBitValue:sensorContact:energyExpended:rrIntervals:reservedFlags:)``
    /// would send it.
    @usableFromInline var frame: HeartRateFrame

    @inlinable var flags: UInt8 { @inline(__always) get { frame.byte(0) } }
    @inlinable var layout: HeartRateLayout { @inline(__always) get { HeartRateLayout(flags: flags) } }
    /// The whole RR-Intervals the frame carried, kept or not.
    @inlinable var pairs: Int { @inline(__always) get { layout.rrPairs(inFrameOf: frame.length) } }

    // The fields below are inlinable so that a reader in another module reads each from the frame's words where it
    // holds the value, instead of calling out with a copy of it (Benchmarks/RESULTS.md, decode speed, "like for like").

    /// True when the value was sent as uint16 (flag bit 0).
    @inlinable public var isSixteenBitValue: Bool { @inline(__always) get { flags & 0x01 != 0 } }

    /// Beats per minute, unsigned (255 is a valid uint8 value).
    @inlinable public var heartRate: UInt16 {
        @inline(__always) get {
            // uint8 or uint16: the high byte counts only when flag bit 0 says so.
            UInt16(truncatingIfNeeded: frame.word(0) &>> 8) & (isSixteenBitValue ? 0xFFFF : 0x00FF)
        }
    }

    /// Flags bits 1–2.
    @inlinable public var sensorContact: SensorContact {
        @inline(__always) get {
            switch flags >> 1 & 0x03 {
            case 3: .detected
            case 2: .notDetected
            default: .notSupported
            }
        }
    }

    /// Flag bits 5–7 (RFU) as received.
    @inlinable public var reservedFlags: UInt8 { @inline(__always) get { flags & 0xE0 } }

    /// Kilojoules since the last reset (flag bit 3).
    @inlinable public var energyExpended: UInt16? {
        @inline(__always) get {
            flags & 0x08 != 0 ? UInt16(truncatingIfNeeded: frame.word(0) &>> ((2 &+ layout.sixteenBit) &* 8)) : nil
        }
    }

    /// The RR-Intervals, oldest first (the first ``RRIntervals/capacity``); nil when flag bit 4 is clear.
    /// Four words of the frame from the first interval on, each one shift pair (``HeartRateFrame/word(_:from:)``).
    @inlinable public var rrIntervals: RRIntervals? {
        @inline(__always) get {
            guard flags & 0x10 != 0 else { return nil }
            let start = layout.rrStart
            return RRIntervals(
                words: (frame.word(0, from: start), frame.word(1, from: start), frame.word(2, from: start), frame.word(3, from: start)),
                count: Swift.min(pairs, RRIntervals.capacity))
        }
    }

    /// Intervals the frame carried beyond ``RRIntervals/capacity`` (after the sixteen oldest); 0 normally.
    @inlinable public var omittedRRIntervalCount: Int { @inline(__always) get { Swift.max(0, pairs &- RRIntervals.capacity) } }

    /// Bytes after the last whole field: ignored, and counted here.
    @inlinable public var trailingByteCount: Int { @inline(__always) get { frame.length &- layout.rrStart &- 2 &* pairs } }

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
        let flags = (sixteenBitValue || heartRate > UInt8.max ? 0x01 : 0) | contactBits | (energyExpended == nil ? 0 : 0x08)
            | (rrIntervals == nil ? 0 : 0x10) | reservedFlags & 0xE0
        var writer = ByteWriter(capacity: HeartRateFrame.capacity)
        writer.uint8(flags)
        if flags & 0x01 != 0 { writer.uint16(heartRate) } else { writer.uint8(UInt8(heartRate)) }
        if let energyExpended { writer.uint16(energyExpended) }
        for interval in rrIntervals ?? RRIntervals([]) { writer.uint16(interval) }
        frame = writer.bytes.withUnsafeBytes { HeartRateFrame($0) }
    }

    @inlinable @inline(__always)
    public init(decoding bytes: UnsafeRawBufferPointer) throws(GATTDecodingError) {
        guard _fastPath(!bytes.isEmpty) else { try throwTruncation(Self.characteristic, required: 2, actual: 0) }
        try requireLength(HeartRateLayout.required(flags: bytes[0]), of: bytes, for: Self.characteristic)
        frame = HeartRateFrame(bytes)
    }

    /// The fields, as a frame without its omitted intervals and trailing bytes.
    public func encoded() -> [UInt8] {
        frame.withBytes { Array($0.prefix(frame.length &- trailingByteCount &- 2 &* omittedRRIntervalCount)) }
    }

    /// The same fields: flags, value, energy, the intervals kept and the counts of the rest, whatever bytes a
    /// frame carried after its last whole field or beyond its sixteenth interval.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.encoded() == rhs.encoded() && lhs.omittedRRIntervalCount == rhs.omittedRRIntervalCount
            && lhs.trailingByteCount == rhs.trailingByteCount
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(encoded())
        hasher.combine(omittedRRIntervalCount)
        hasher.combine(trailingByteCount)
    }
}
