import GATTHealth

/// The values a home blood-pressure cuff can have measured, the one source of truth for what the Gateway
/// accepts as a reading (docs/gateway.md, "Plausible values"; docs/reference/plausible-values.md gives the
/// reasons for each bound). Bounds are inclusive, in mmHg for pressures and beats per minute for the pulse.
public struct PlausibleRange: Hashable, Sendable {
    /// What the range bounds, as the journal names it.
    public let name: String
    public let bounds: ClosedRange<Double>
    /// The unit of ``bounds``: `mmHg` or `/min`.
    public let unitSymbol: String

    /// Systolic 20–300 mmHg: a cuff's manometer spans 0–300 mmHg, and no arm with a pulse has a systolic near 0.
    public static let systolic = PlausibleRange(name: "systolic", bounds: 20 ... 300, unitSymbol: "mmHg")
    /// Diastolic 10–300 mmHg; it must also lie below the systolic (``Implausibility/diastolicNotBelowSystolic(diastolic:systolic:unit:)``).
    public static let diastolic = PlausibleRange(name: "diastolic", bounds: 10 ... 300, unitSymbol: "mmHg")
    /// Mean arterial pressure 10–300 mmHg.
    public static let meanArterialPressure = PlausibleRange(name: "MAP", bounds: 10 ... 300, unitSymbol: "mmHg")
    /// Pulse 30–240 per minute, wider than the 40–180/min cuffs specify.
    public static let pulseRate = PlausibleRange(name: "pulse", bounds: 30 ... 240, unitSymbol: "/min")

    /// Pascals per millimetre of mercury (13.5951 g/cm³ × 9.80665 m/s² × 1 mm), the factor HealthStore
    /// converts with (docs/health-store.md), so a reading checked here is the reading stored.
    public static let pascalsPerMillimetreOfMercury = 133.322387415

    /// Whether `value`, a pressure in `unit` or (unit nil) a pulse rate, lies in the range. A kPa value is
    /// converted to mmHg and compared to the tenth of mmHg: 40.0 kPa, a kPa cuff's nearest step to 300 mmHg,
    /// is 300.02 mmHg.
    public func contains(_ value: MedFloat16, unit: PressureUnit?) -> Bool {
        guard value.isFinite else { return false }
        return bounds.contains((Self.inRangeUnit(value, unit) * 10).rounded() / 10)
    }

    /// The bounds with their unit, as messages name them: `20–300 mmHg`, `30–240/min`.
    public var boundsDescription: String {
        quantity("\(Int(bounds.lowerBound))–\(Int(bounds.upperBound))", unitSymbol)
    }

    /// Why `value`, entered by hand in the unit of the bounds, is no value a cuff could have measured —
    /// `systolic 350 mmHg outside 20–300 mmHg`, as the journal names a cuff's (``Implausibility``) —; nil when it is one.
    public func refusal(_ value: Double) -> String? {
        guard !(value.isFinite && bounds.contains(value)) else { return nil }
        let number = value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        return "\(name) \(quantity(number, unitSymbol)) outside \(boundsDescription)"
    }

    /// `value` in the unit of the bounds: a pressure in mmHg, a pulse as it is.
    static func inRangeUnit(_ value: MedFloat16, _ unit: PressureUnit?) -> Double {
        unit == .kilopascals ? value.doubleValue * 1000 / pascalsPerMillimetreOfMercury : value.doubleValue
    }
}

/// A number with its unit: `-204.8 mmHg`, `300/min`.
func quantity(_ number: String, _ symbol: String) -> String {
    symbol.hasPrefix("/") ? number + symbol : number + " " + symbol
}
