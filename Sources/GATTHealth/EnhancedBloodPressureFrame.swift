/// The layout shared by BPS 1.1's Enhanced Blood Pressure Measurement 0x2B34 (three SFLOATs) and
/// Enhanced Intermediate Cuff Pressure 0x2B35 (one SFLOAT). Field list and presence from the GSS
/// (embassy-rs/bt-hci); field order from two independent peers (RonanB96/bluetooth-sig-python,
/// im97mori-github/JavaBLEUtil), unverified against the spec text (docs/reference/GATT-HEALTH.md §7):
///
/// | field | type | present when |
/// |---|---|---|
/// | Flags | 8-bit | always |
/// | pressures | 1 or 3 × SFLOAT | always |
/// | Time Stamp | uint32 s since Epoch Start, UTC | bit 1 |
/// | Pulse Rate | SFLOAT | bit 2 |
/// | User ID | uint8 | bit 3 |
/// | Measurement Status | 16-bit | bit 4 |
/// | User Facing Time | uint32 s since Epoch Start | bit 5 |
///
/// Bit 6 picks the Epoch Start; bit 7 is RFU.
struct EnhancedBloodPressureFrame {
    static let reservedFlagBits: UInt8 = 0x80

    var flags: UInt8
    var values: (MedFloat16, MedFloat16, MedFloat16)
    var timeStamp: UInt32?
    var pulseRate: MedFloat16?
    var userID: UInt8?
    var status: BloodPressureMeasurementStatus?
    var userFacingTime: UInt32?
    var trailingByteCount: Int

    static func requiredLength(flags: UInt8, pressureCount: Int) -> Int {
        1 &+ 2 &* pressureCount &+ 4 &* Int(flags >> 1 & 1) &+ 2 &* Int(flags >> 2 & 1) &+ Int(flags >> 3 & 1)
            &+ 2 &* Int(flags >> 4 & 1) &+ 4 &* Int(flags >> 5 & 1)
    }

    init(
        decoding bytes: UnsafeRawBufferPointer, as characteristic: HealthCharacteristic, pressureCount: Int
    ) throws(GATTDecodingError) {
        guard !bytes.isEmpty else {
            throw GATTDecodingError(characteristic, .truncated(required: 1 + 2 * pressureCount, actual: 0))
        }
        flags = bytes[0]
        let required = Self.requiredLength(flags: flags, pressureCount: pressureCount)
        try requireLength(required, of: bytes, for: characteristic)
        var reader = ByteReader(bytes, offset: 1)
        let first = reader.medFloat16()
        values = pressureCount == 3 ? (first, reader.medFloat16(), reader.medFloat16()) : (first, first, first)
        timeStamp = flags & 0x02 != 0 ? reader.uint32() : nil
        pulseRate = flags & 0x04 != 0 ? reader.medFloat16() : nil
        userID = flags & 0x08 != 0 ? reader.uint8() : nil
        status = flags & 0x10 != 0 ? BloodPressureMeasurementStatus(rawValue: reader.uint16()) : nil
        userFacingTime = flags & 0x20 != 0 ? reader.uint32() : nil
        trailingByteCount = bytes.count &- required
    }

    init(
        unit: PressureUnit, epochStart: EpochStart, values: (MedFloat16, MedFloat16, MedFloat16),
        timeStamp: UInt32?, pulseRate: MedFloat16?, userID: UInt8?, status: BloodPressureMeasurementStatus?,
        userFacingTime: UInt32?, reservedFlags: UInt8
    ) {
        flags = unit.flagBit | epochStart.flagBit | reservedFlags & Self.reservedFlagBits
            | (timeStamp == nil ? 0 : 0x02) | (pulseRate == nil ? 0 : 0x04) | (userID == nil ? 0 : 0x08)
            | (status == nil ? 0 : 0x10) | (userFacingTime == nil ? 0 : 0x20)
        self.values = values
        self.timeStamp = timeStamp
        self.pulseRate = pulseRate
        self.userID = userID
        self.status = status
        self.userFacingTime = userFacingTime
        trailingByteCount = 0
    }

    func encoded(pressureCount: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: 23)
        writer.uint8(flags)
        writer.medFloat16(values.0)
        if pressureCount == 3 {
            writer.medFloat16(values.1)
            writer.medFloat16(values.2)
        }
        if let timeStamp { writer.uint32(timeStamp) }
        if let pulseRate { writer.medFloat16(pulseRate) }
        if let userID { writer.uint8(userID) }
        if let status { writer.uint16(status.rawValue) }
        if let userFacingTime { writer.uint32(userFacingTime) }
        return writer.bytes
    }
}
