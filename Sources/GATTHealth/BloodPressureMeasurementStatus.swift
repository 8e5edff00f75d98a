/// Measurement Status of 0x2A35/0x2A36/0x2B34/0x2B35 (gatt-xml `blood_pressure_measurement.xml`;
/// docs/reference/GATT-HEALTH.md §4). All 16 bits are kept; bits 6–15 are RFU and do not change any meaning.
///
/// A bit means something only when the matching Blood Pressure Feature bit is set: a clear bit on a
/// cuff without the feature is "not supported", not "OK".
public struct BloodPressureMeasurementStatus: Hashable, Sendable {
    /// The 16 bits as sent.
    public let rawValue: UInt16

    /// Wraps the 16 bits as sent.
    @inlinable
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The 2-bit Pulse Rate Range field (bits 3–4).
    public enum PulseRateRange: UInt8, Hashable, Sendable {
        case withinRange = 0
        case exceedsUpperLimit = 1
        case belowLowerLimit = 2
        case reserved = 3
    }

    /// Bit 0: body movement during the measurement.
    public var bodyMovement: Bool { rawValue & 0x0001 != 0 }
    /// Bit 1: cuff too loose.
    public var cuffTooLoose: Bool { rawValue & 0x0002 != 0 }
    /// Bit 2: irregular pulse detected.
    public var irregularPulse: Bool { rawValue & 0x0004 != 0 }
    /// Bits 3–4: pulse rate range.
    public var pulseRateRange: PulseRateRange { PulseRateRange(rawValue: UInt8(rawValue >> 3 & 0x3))! }
    /// Bit 5: improper measurement position.
    public var improperPosition: Bool { rawValue & 0x0020 != 0 }
    /// Bits 6–15, reserved for future use.
    public var reservedBits: UInt16 { rawValue & 0xFFC0 }

    /// Builds a status word from its fields (RFU bits clear).
    public init(
        bodyMovement: Bool = false, cuffTooLoose: Bool = false, irregularPulse: Bool = false,
        pulseRateRange: PulseRateRange = .withinRange, improperPosition: Bool = false
    ) {
        rawValue = (bodyMovement ? 0x01 : 0) | (cuffTooLoose ? 0x02 : 0) | (irregularPulse ? 0x04 : 0)
            | UInt16(pulseRateRange.rawValue) << 3 | (improperPosition ? 0x20 : 0)
    }
}
