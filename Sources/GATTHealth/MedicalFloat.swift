/// The five reserved patterns of IEEE 11073-20601 SFLOAT and FLOAT (HL7 PHD implementation guide, "FLOATs";
/// docs/reference/GATT-HEALTH.md §3). A value is special only when its *whole* bit pattern equals one of them.
public enum MedFloatSpecial: String, CaseIterable, Hashable, Sendable {
    /// Not a Number: an invalid result (0x07FF / 0x007FFFFF).
    case nan = "NaN"
    /// Not at this resolution (0x0800 / 0x00800000).
    case notAtThisResolution = "NRes"
    /// +INFINITY (0x07FE / 0x007FFFFE).
    case positiveInfinity = "+INF"
    /// −INFINITY (0x0802 / 0x00800002).
    case negativeInfinity = "-INF"
    /// Reserved for future use (0x0801 / 0x00800001); never a number.
    case reserved = "reserved"
}

/// An IEEE 11073-20601 decimal floating-point value: mantissa × 10^exponent, both two's complement.
///
/// The exponent carries precision (2, 2.0 and 2.00 differ), so values keep their mantissa and exponent
/// and become a `Double` only on demand (docs/reference/GATT-HEALTH.md §3, "Precision and arithmetic").
public protocol MedicalFloat: Hashable, Sendable, CustomStringConvertible {
    /// The signed mantissa; meaningless when ``special`` is not nil.
    var mantissa: Int32 { get }
    /// The signed decimal exponent; meaningless when ``special`` is not nil.
    var exponent: Int8 { get }
    /// The reserved meaning of the bit pattern, or nil for an ordinary number.
    var special: MedFloatSpecial? { get }
}

extension MedicalFloat {
    /// True for an ordinary number (not NaN, NRes, ±INF or reserved).
    public var isFinite: Bool { special == nil }

    /// The value as a `Double`. Negative exponents divide by a power of ten (189 / 10 = 18.9) rather than
    /// multiply by 0.1 (189 × 0.1 = 18.900000000000002). NaN, NRes and reserved become `.nan`.
    public var doubleValue: Double {
        switch special {
        case nil:
            let scale = powerOfTen(Int(exponent.magnitude))
            return exponent < 0 ? Double(mantissa) / scale : Double(mantissa) * scale
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        case .nan, .notAtThisResolution, .reserved: return .nan
        }
    }

    /// The decimal text with the precision the exponent gives (`2.00`, `-16.2`, `3600`), or the special
    /// value's name (`NaN`, `NRes`, `+INF`, `-INF`, `reserved`).
    public var description: String {
        if let special { return special.rawValue }
        let digits = String(mantissa.magnitude)
        let sign = mantissa < 0 ? "-" : ""
        guard exponent < 0 else { return sign + digits + String(repeating: "0", count: Int(exponent)) }
        let fractionDigits = Int(exponent.magnitude)
        let padded = String(repeating: "0", count: max(0, fractionDigits + 1 - digits.count)) + digits
        let point = padded.index(padded.endIndex, offsetBy: -fractionDigits)
        return sign + padded[..<point] + "." + padded[point...]
    }
}

/// 10^n as a `Double`; exact up to 10^22, then the product of exact factors.
@inline(__always)
func powerOfTen(_ n: Int) -> Double {
    if n < exactPowersOfTen.count { return exactPowersOfTen[n] }
    var result = exactPowersOfTen[exactPowersOfTen.count - 1]
    for _ in exactPowersOfTen.count - 1 ..< n { result *= 10 }
    return result
}

private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
