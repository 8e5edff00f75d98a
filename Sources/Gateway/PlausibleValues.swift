import GATTHealth

/// The values of one measurement the Gateway keeps as a reading: systolic and diastolic within their
/// ``PlausibleRange`` and the diastolic below the systolic, else there is no reading at all; MAP and pulse
/// kept when plausible, dropped (and named in ``dropped``) when not, so a good pressure survives a bad pulse
/// (docs/gateway.md, "Plausible values").
struct PlausibleValues: Hashable, Sendable {
    var systolic, diastolic: MedFloat16
    var meanArterialPressure: MedFloat16?
    var pulseRate: MedFloat16?
    /// The MAP or pulse left out because it was implausible.
    var dropped: [Implausibility] = []

    /// Screens what a cuff sent, pressures in `unit`.
    init(
        unit: PressureUnit, systolic: MedFloat16, diastolic: MedFloat16, meanArterialPressure: MedFloat16,
        pulseRate: MedFloat16?
    ) throws(FailureReason) {
        guard systolic.isFinite, diastolic.isFinite else { throw .notMeasured }
        for (range, value) in [(PlausibleRange.systolic, systolic), (.diastolic, diastolic)] where !range.contains(value, unit: unit) {
            throw .implausible(.outside(range, value, unit: unit))
        }
        guard diastolic.doubleValue < systolic.doubleValue else {
            throw .implausible(.diastolicNotBelowSystolic(diastolic: diastolic, systolic: systolic, unit: unit))
        }
        self.systolic = systolic
        self.diastolic = diastolic
        self.meanArterialPressure = keep(meanArterialPressure, .meanArterialPressure, unit)
        self.pulseRate = pulseRate.flatMap { keep($0, .pulseRate, nil) }
    }

    /// An optional value worth storing: a number, not 0 (a MAP of 0x0000 means "not measured" on Beurer
    /// cuffs and others, docs/reference/GATT-HEALTH.md §4, "MAP may be 0x0000 or NaN on real cuffs: treat it as optional"),
    /// and within `range`, else recorded as dropped.
    private mutating func keep(_ value: MedFloat16, _ range: PlausibleRange, _ unit: PressureUnit?) -> MedFloat16? {
        guard value.isFinite, value.mantissa != 0 else { return nil }
        guard range.contains(value, unit: unit) else {
            dropped.append(.outside(range, value, unit: unit))
            return nil
        }
        return value
    }
}
