/// IEEE 11073-20601 FLOAT: an 8-bit signed exponent (bits 31–24) and a 24-bit signed mantissa
/// (bits 23–0), raw bit pattern kept. Special values follow the exact-pattern rule (docs/reference/GATT-HEALTH.md §3).
public struct MedFloat32: MedicalFloat {
    /// The 32 bits as they came off the wire (after little-endian assembly).
    public let bitPattern: UInt32

    /// Wraps a raw 32-bit pattern.
    @inlinable
    public init(bitPattern: UInt32) { self.bitPattern = bitPattern }

    /// The largest mantissa magnitude cuffd encodes, clear of the reserved patterns 0x7FFFFE…0x800002.
    public static let maximumEncodedMantissa: Int32 = 0x7F_FFFD

    /// Encodes `mantissa` × 10^`exponent`; nil when |mantissa| exceeds ``maximumEncodedMantissa``.
    public init?(mantissa: Int32, exponent: Int8) {
        guard mantissa.magnitude <= Self.maximumEncodedMantissa else { return nil }
        bitPattern = UInt32(UInt8(bitPattern: exponent)) << 24 | UInt32(bitPattern: mantissa) & 0x00FF_FFFF
    }

    /// Encodes a special value.
    public init(_ special: MedFloatSpecial) {
        switch special {
        case .nan: bitPattern = 0x007F_FFFF
        case .notAtThisResolution: bitPattern = 0x0080_0000
        case .positiveInfinity: bitPattern = 0x007F_FFFE
        case .negativeInfinity: bitPattern = 0x0080_0002
        case .reserved: bitPattern = 0x0080_0001
        }
    }

    public var mantissa: Int32 { Int32(bitPattern: bitPattern << 8) >> 8 }

    public var exponent: Int8 { Int8(bitPattern: UInt8(truncatingIfNeeded: bitPattern >> 24)) }

    public var special: MedFloatSpecial? {
        switch bitPattern {
        case 0x007F_FFFF: .nan
        case 0x0080_0000: .notAtThisResolution
        case 0x007F_FFFE: .positiveInfinity
        case 0x0080_0002: .negativeInfinity
        case 0x0080_0001: .reserved
        default: nil
        }
    }
}
