// Invariants of Blood Pressure Measurement 0x2A35 (spec and Beurer layouts), Intermediate Cuff Pressure
// 0x2A36 (docs/reference/GATT-HEALTH.md §4–5, §13.5) and the BPS 1.1 Enhanced 0x2B34/0x2B35 (§7).

/// What 0x2A35 and 0x2A36 share, so one check covers both.
protocol BloodPressureFrameFields: QuirkAwareValue, Equatable {
    var unit: PressureUnit { get }
    /// Systolic (0x2A35) or the cuff pressure (0x2A36): the first SFLOAT.
    var firstPressure: MedFloat16 { get }
    /// Diastolic and MAP; nil for 0x2A36, whose slots are ignored.
    var otherPressures: (MedFloat16, MedFloat16)? { get }
    var timeStamp: DateTime? { get }
    var pulseRate: MedFloat16? { get }
    var userID: UInt8? { get }
    var status: BloodPressureMeasurementStatus? { get }
    var reservedFlags: UInt8 { get }
    var trailingByteCount: Int { get set }
}

extension BloodPressureMeasurement: BloodPressureFrameFields {
    var firstPressure: MedFloat16 { systolic }
    var otherPressures: (MedFloat16, MedFloat16)? { (diastolic, meanArterialPressure) }
}

extension IntermediateCuffPressure: BloodPressureFrameFields {
    var firstPressure: MedFloat16 { cuffPressure }
    var otherPressures: (MedFloat16, MedFloat16)? { nil }
}

/// 0x2A35/0x2A36. Length = 7 + 7·bit1 + 2·bit2 + 1·bit3 + 2·bit4 (with the Beurer quirk the User ID byte is
/// always there); shorter fails as `.truncated` with that length, anything longer decodes with the rest
/// counted. Every field equals the bytes at its offset (Beurer: Pulse Rate and Status big-endian). A spec
/// frame re-encodes to itself (0x2A36: NaN in the unused slots); every value, Beurer's too, survives
/// encode → decode.
func checkBloodPressureFrame<Value: BloodPressureFrameFields>(
    _ bytes: UnsafeRawBufferPointer, as: Value.Type, quirk: BloodPressureQuirk?
) {
    let result = outcome { () throws(GATTDecodingError) in try Value(decoding: bytes, quirk: quirk) }
    guard let flags = bytes.first else { return expectTruncation(result, required: 7, actual: 0, "BP frame") }
    let beurer = quirk == .beurerByteSwapped
    let hasTimeStamp = flags & 0x02 != 0, hasPulse = flags & 0x04 != 0
    let hasUser = beurer || flags & 0x08 != 0, hasStatus = flags & 0x10 != 0
    let required = 7 + (hasTimeStamp ? 7 : 0) + (hasPulse ? 2 : 0) + (hasUser ? 1 : 0) + (hasStatus ? 2 : 0)
    guard bytes.count >= required else {
        return expectTruncation(result, required: required, actual: bytes.count, "BP frame")
    }
    guard let value = expectValue(result, "BP frame") else { return }

    let read16 = beurer ? bigEndian16 : littleEndian16
    invariant(value.unit == (flags & 1 == 0 ? .millimetresOfMercury : .kilopascals), "unit flag misread")
    invariant(value.firstPressure.bitPattern == littleEndian16(bytes, 1), "first SFLOAT misread")
    if let (diastolic, meanArterialPressure) = value.otherPressures {
        invariant(diastolic.bitPattern == littleEndian16(bytes, 3), "diastolic misread")
        invariant(meanArterialPressure.bitPattern == littleEndian16(bytes, 5), "MAP misread")
    }
    var offset = 7
    invariant(value.timeStamp == (hasTimeStamp ? dateTime(bytes, offset) : nil), "time stamp misread")
    if hasTimeStamp { offset += 7 }
    invariant(value.pulseRate?.bitPattern == (hasPulse ? read16(bytes, offset) : nil), "pulse rate misread")
    if hasPulse { offset += 2 }
    invariant(value.userID == (hasUser ? bytes[offset] : nil), "user ID misread")
    if hasUser { offset += 1 }
    invariant(value.status?.rawValue == (hasStatus ? read16(bytes, offset) : nil), "status misread")
    invariant(value.reservedFlags == flags & 0xE0, "RFU flag bits lost")
    invariant(value.trailingByteCount == bytes.count - required, "trailing bytes miscounted")

    if !beurer {
        var expected = prefix(bytes, required)
        if Value.self == IntermediateCuffPressure.self { expected.replaceSubrange(3 ..< 7, with: [0xFF, 0x07, 0xFF, 0x07]) }
        invariant(value.encoded() == expected, "re-encoding changed the frame")
    }
    var withoutTrailing = value
    withoutTrailing.trailingByteCount = 0
    let again = try? Value(decoding: value.encoded(), quirk: nil)
    invariant(again == withoutTrailing, "decode(encode(x)) != x")
}

/// 0x2B34/0x2B35. Length = 1 + 2·pressures + 4·bit1 + 2·bit2 + 1·bit3 + 2·bit4 + 4·bit5; fields at their
/// offsets; the whole flags byte (unit, presence, epoch, RFU) is kept, so the frame re-encodes to itself.
func checkEnhanced<Value: GATTCharacteristicValue & Equatable>(_ bytes: UnsafeRawBufferPointer, as: Value.Type, pressures: Int) {
    let result = outcome { () throws(GATTDecodingError) in try Value(decoding: bytes) }
    guard let flags = bytes.first else {
        return expectTruncation(result, required: 1 + 2 * pressures, actual: 0, "BPS 1.1 frame")
    }
    let required = 1 + 2 * pressures + 4 * Int(flags >> 1 & 1) + 2 * Int(flags >> 2 & 1) + Int(flags >> 3 & 1)
        + 2 * Int(flags >> 4 & 1) + 4 * Int(flags >> 5 & 1)
    guard bytes.count >= required else {
        return expectTruncation(result, required: required, actual: bytes.count, "BPS 1.1 frame")
    }
    guard let value = expectValue(result, "BPS 1.1 frame") else { return }
    let fields = EnhancedFields(value)
    invariant(fields.flags == flags, "BPS 1.1 flags misread")
    invariant(fields.pressures == (0 ..< pressures).map { littleEndian16(bytes, 1 + 2 * $0) }, "BPS 1.1 SFLOATs misread")
    var offset = 1 + 2 * pressures
    func next<T>(_ bit: UInt8, _ size: Int, _ read: (Int) -> T) -> T? {
        guard flags & bit != 0 else { return nil }
        defer { offset += size }
        return read(offset)
    }
    invariant(fields.timeStamp == next(0x02, 4) { littleEndian32(bytes, $0) }, "BPS 1.1 time stamp misread")
    invariant(fields.pulseRate == next(0x04, 2) { littleEndian16(bytes, $0) }, "BPS 1.1 pulse rate misread")
    invariant(fields.userID == next(0x08, 1) { bytes[$0] }, "BPS 1.1 user ID misread")
    invariant(fields.status == next(0x10, 2) { littleEndian16(bytes, $0) }, "BPS 1.1 status misread")
    invariant(fields.userFacingTime == next(0x20, 4) { littleEndian32(bytes, $0) }, "BPS 1.1 user facing time misread")
    invariant(offset == required && fields.trailingByteCount == bytes.count - required, "BPS 1.1 trailing bytes miscounted")
    invariant(value.encoded() == prefix(bytes, required), "re-encoding changed the BPS 1.1 frame")
    invariant(try! EnhancedFields(Value(decoding: value.encoded())) == fields.withoutTrailingBytes, "BPS 1.1 decode(encode(x)) != x")
}

/// The fields of 0x2B34 or 0x2B35 side by side, flags rebuilt from the typed values.
struct EnhancedFields: Equatable {
    var flags: UInt8
    var pressures: [UInt16]
    var timeStamp: UInt32?
    var pulseRate: UInt16?
    var userID: UInt8?
    var status: UInt16?
    var userFacingTime: UInt32?
    var trailingByteCount: Int

    init(_ value: some GATTCharacteristicValue) {
        if let measurement = value as? EnhancedBloodPressureMeasurement {
            self.init(
                measurement.unit, measurement.epochStart, measurement.reservedFlags,
                [measurement.systolic, measurement.diastolic, measurement.meanArterialPressure],
                measurement.timeStamp, measurement.pulseRate, measurement.userID, measurement.status,
                measurement.userFacingTime, measurement.trailingByteCount)
        } else {
            let progress = value as! EnhancedIntermediateCuffPressure
            self.init(
                progress.unit, progress.epochStart, progress.reservedFlags, [progress.cuffPressure], progress.timeStamp,
                progress.pulseRate, progress.userID, progress.status, progress.userFacingTime, progress.trailingByteCount)
        }
    }

    private init(
        _ unit: PressureUnit, _ epoch: EpochStart, _ reserved: UInt8, _ pressures: [MedFloat16], _ timeStamp: UInt32?,
        _ pulseRate: MedFloat16?, _ userID: UInt8?, _ status: BloodPressureMeasurementStatus?, _ userFacingTime: UInt32?,
        _ trailingByteCount: Int
    ) {
        // Flags bits (docs/reference/GATT-HEALTH.md §7): 0 unit, 1–5 presence, 6 Epoch Start, 7 RFU.
        flags = (unit == .kilopascals ? 0x01 : 0) | (timeStamp == nil ? 0 : 0x02) | (pulseRate == nil ? 0 : 0x04)
            | (userID == nil ? 0 : 0x08) | (status == nil ? 0 : 0x10) | (userFacingTime == nil ? 0 : 0x20)
            | (epoch == .year2000 ? 0x40 : 0) | reserved
        self.pressures = pressures.map(\.bitPattern)
        self.timeStamp = timeStamp
        self.pulseRate = pulseRate?.bitPattern
        self.userID = userID
        self.status = status?.rawValue
        self.userFacingTime = userFacingTime
        self.trailingByteCount = trailingByteCount
    }

    var withoutTrailingBytes: Self {
        var copy = self
        copy.trailingByteCount = 0
        return copy
    }
}
