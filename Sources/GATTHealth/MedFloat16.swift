/// IEEE 11073-20601 SFLOAT: a 4-bit signed exponent (bits 15–12) and a 12-bit signed mantissa
/// (bits 11–0). The raw bit pattern is kept, so precision and special values survive decoding.
///
/// Special values follow the exact-pattern rule (docs/reference/GATT-HEALTH.md §3): only the five whole 16-bit
/// patterns 0x07FF, 0x0800, 0x07FE, 0x0802 and 0x0801 are special, so wire `FF F7` is 204.7.
public struct MedFloat16: MedicalFloat {
    /// The 16 bits as they came off the wire (after little-endian assembly).
    public let bitPattern: UInt16

    /// Wraps a raw 16-bit pattern.
    @inlinable
    public init(bitPattern: UInt16) { self.bitPattern = bitPattern }

    /// The largest mantissa magnitude cuffd encodes: 2045 keeps clear of the reserved patterns even
    /// for peers that classify by mantissa alone (PureSwift/Bluetooth `SFloat.maxMantissa`).
    public static let maximumEncodedMantissa: Int32 = 2045

    /// Encodes `mantissa` × 10^`exponent`; nil when |mantissa| > 2045 or the exponent is outside −8…7.
    public init?(mantissa: Int32, exponent: Int8) {
        guard mantissa.magnitude <= Self.maximumEncodedMantissa, (-8 ... 7).contains(exponent) else { return nil }
        bitPattern = UInt16(truncatingIfNeeded: Int16(exponent)) << 12 | UInt16(truncatingIfNeeded: mantissa) & 0x0FFF
    }

    /// Encodes `value` rounded to `fractionDigits` decimals; nil when it does not fit.
    public init?(_ value: Double, fractionDigits: Int) {
        guard (0 ... 8).contains(fractionDigits) else { return nil }
        let scaled = (value * powerOfTen(fractionDigits)).rounded()
        guard let mantissa = Int32(exactly: scaled) else { return nil }
        self.init(mantissa: mantissa, exponent: Int8(-fractionDigits))
    }

    /// Encodes a special value.
    public init(_ special: MedFloatSpecial) {
        switch special {
        case .nan: bitPattern = 0x07FF
        case .notAtThisResolution: bitPattern = 0x0800
        case .positiveInfinity: bitPattern = 0x07FE
        case .negativeInfinity: bitPattern = 0x0802
        case .reserved: bitPattern = 0x0801
        }
    }

    public var mantissa: Int32 { Int32(Int16(bitPattern: bitPattern << 4) >> 4) }

    public var exponent: Int8 { Int8(truncatingIfNeeded: Int16(bitPattern: bitPattern) >> 12) }

    public var special: MedFloatSpecial? {
        switch bitPattern {
        case 0x07FF: .nan
        case 0x0800: .notAtThisResolution
        case 0x07FE: .positiveInfinity
        case 0x0802: .negativeInfinity
        case 0x0801: .reserved
        default: nil
        }
    }
}
