/// The layout shared by Blood Pressure Measurement 0x2A35 and Intermediate Cuff Pressure 0x2A36
/// (gatt-xml `blood_pressure_measurement.xml`, `intermediate_cuff_pressure.xml`; docs/reference/GATT-HEALTH.md §4–5):
///
/// | offset | size | field | present when |
/// |---|---|---|---|
/// | 0 | 1 | Flags | always |
/// | 1 | 2 × 3 | three SFLOATs | always |
/// | 7 | 7 | Time Stamp (Date Time) | bit 1 |
/// | next | 2 | Pulse Rate (SFLOAT) | bit 2 |
/// | next | 1 | User ID | bit 3 |
/// | next | 2 | Measurement Status | bit 4 |
///
/// Required length = 7 + 7·bit1 + 2·bit2 + 1·bit3 + 2·bit4, computed before any field is read.
@usableFromInline
struct BloodPressureFrame {
    @usableFromInline static let timeStampPresent: UInt8 = 0x02
    @usableFromInline static let pulseRatePresent: UInt8 = 0x04
    @usableFromInline static let userIDPresent: UInt8 = 0x08
    @usableFromInline static let statusPresent: UInt8 = 0x10
    /// Bits 5–7: RFU; kept, never used for the layout.
    @usableFromInline static let reservedFlagBits: UInt8 = 0xE0

    @usableFromInline var flags: UInt8
    @usableFromInline var values: (MedFloat16, MedFloat16, MedFloat16)
    @usableFromInline var timeStamp: DateTime?
    @usableFromInline var pulseRate: MedFloat16?
    @usableFromInline var userID: UInt8?
    @usableFromInline var status: BloodPressureMeasurementStatus?
    @usableFromInline var trailingByteCount: Int

    /// The length the flags announce. With ``BloodPressureQuirk/beurerByteSwapped`` the User ID byte is
    /// there whatever bit 3 says.
    @inlinable @inline(__always)
    static func requiredLength(flags: UInt8, byteSwapped: Bool) -> Int {
        let userByte = byteSwapped ? 1 : Int(flags >> 3 & 1)
        return 7 &+ 7 &* Int(flags >> 1 & 1) &+ 2 &* Int(flags >> 2 & 1) &+ userByte &+ 2 &* Int(flags >> 4 & 1)
    }

    /// Decodes a frame as the spec lays it out or, for a device with a quirk, as that device sends it: one
    /// branch per frame, each side compiled with its layout fixed.
    @inlinable @inline(__always)
    init(
        decoding bytes: UnsafeRawBufferPointer, as characteristic: HealthCharacteristic, quirk: BloodPressureQuirk?
    ) throws(GATTDecodingError) {
        if quirk == .beurerByteSwapped {
            try self.init(decoding: bytes, as: characteristic, byteSwapped: true)
        } else {
            try self.init(decoding: bytes, as: characteristic, byteSwapped: false)
        }
    }

    @inlinable @inline(__always)
    init(
        decoding bytes: UnsafeRawBufferPointer, as characteristic: HealthCharacteristic, byteSwapped: Bool
    ) throws(GATTDecodingError) {
        guard _fastPath(!bytes.isEmpty) else { try throwTruncation(characteristic, required: 7, actual: 0) }
        flags = bytes[0]
        let required = Self.requiredLength(flags: flags, byteSwapped: byteSwapped)
        try requireLength(required, of: bytes, for: characteristic)
        var reader = ByteReader(bytes, offset: 1)
        values = (reader.medFloat16(), reader.medFloat16(), reader.medFloat16())
        timeStamp = flags & Self.timeStampPresent != 0 ? reader.dateTime() : nil
        if byteSwapped {
            pulseRate = flags & Self.pulseRatePresent != 0 ? MedFloat16(bitPattern: reader.uint16BigEndian()) : nil
            userID = reader.uint8()
            status = flags & Self.statusPresent != 0
                ? BloodPressureMeasurementStatus(rawValue: reader.uint16BigEndian()) : nil
        } else {
            pulseRate = flags & Self.pulseRatePresent != 0 ? reader.medFloat16() : nil
            userID = flags & Self.userIDPresent != 0 ? reader.uint8() : nil
            status = flags & Self.statusPresent != 0 ? BloodPressureMeasurementStatus(rawValue: reader.uint16()) : nil
        }
        trailingByteCount = bytes.count &- required
    }

    init(
        unit: PressureUnit, values: (MedFloat16, MedFloat16, MedFloat16), timeStamp: DateTime?,
        pulseRate: MedFloat16?, userID: UInt8?, status: BloodPressureMeasurementStatus?, reservedFlags: UInt8
    ) {
        flags = unit.flagBit | reservedFlags & Self.reservedFlagBits
            | (timeStamp == nil ? 0 : Self.timeStampPresent) | (pulseRate == nil ? 0 : Self.pulseRatePresent)
            | (userID == nil ? 0 : Self.userIDPresent) | (status == nil ? 0 : Self.statusPresent)
        self.values = values
        self.timeStamp = timeStamp
        self.pulseRate = pulseRate
        self.userID = userID
        self.status = status
        trailingByteCount = 0
    }

    @inlinable var unit: PressureUnit { PressureUnit(flags: flags) }

    @inlinable var reservedFlags: UInt8 { flags & Self.reservedFlagBits }

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 19)
        writer.uint8(flags)
        writer.medFloat16(values.0)
        writer.medFloat16(values.1)
        writer.medFloat16(values.2)
        if let timeStamp { writer.dateTime(timeStamp) }
        if let pulseRate { writer.medFloat16(pulseRate) }
        if let userID { writer.uint8(userID) }
        if let status { writer.uint16(status.rawValue) }
        return writer.bytes
    }
}
