/// The pressure unit flag (bit 0) of the Blood Pressure characteristics: 0 = mmHg, 1 = kPa
/// (gatt-xml `blood_pressure_measurement.xml`). The flag is authoritative; nothing is converted here.
public enum PressureUnit: String, Hashable, Sendable {
    case millimetresOfMercury = "mmHg"
    case kilopascals = "kPa"

    @usableFromInline @inline(__always)
    init(flags: UInt8) { self = flags & 0x01 == 0 ? .millimetresOfMercury : .kilopascals }

    var flagBit: UInt8 { self == .millimetresOfMercury ? 0 : 1 }
}
