import GATTHealth

/// A value no cuff can have measured (docs/gateway.md, "Plausible values"), as the journal says it:
/// `systolic -204.8 mmHg outside 20–300 mmHg`, `systolic 45.0 kPa (337.53 mmHg) outside 20–300 mmHg`.
public enum Implausibility: Hashable, Sendable, CustomStringConvertible {
    /// A value outside its ``PlausibleRange``, as sent, in `unit` (nil for the pulse).
    case outside(PlausibleRange, MedFloat16, unit: PressureUnit?)
    /// A diastolic at or above the systolic: no blood flows between beats at a pressure it had not at the beat.
    case diastolicNotBelowSystolic(diastolic: MedFloat16, systolic: MedFloat16, unit: PressureUnit)

    public var description: String {
        switch self {
        case let .outside(range, value, unit):
            let sent = quantity("\(value)", unit?.rawValue ?? range.unitSymbol)
            let converted = unit == .kilopascals ? " (\(hundredths(PlausibleRange.inRangeUnit(value, unit))) mmHg)" : ""
            return "\(range.name) \(sent)\(converted) outside \(range.boundsDescription)"
        case let .diastolicNotBelowSystolic(diastolic, systolic, unit):
            return "diastolic \(diastolic) \(unit.rawValue) not below systolic \(systolic) \(unit.rawValue)"
        }
    }
}

/// `value` rounded to two decimals, as Swift prints a `Double`.
private func hundredths(_ value: Double) -> String {
    "\((value * 100).rounded() / 100)"
}
