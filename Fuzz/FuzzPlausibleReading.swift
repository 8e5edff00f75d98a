// Invariant of the Gateway's reading path (docs/gateway.md, "Plausible values"), compiled with the
// plausibility files of Sources/Gateway by scripts/fuzz: whatever a 0x2A35 payload decodes to, what
// PlausibleValues keeps as a reading lies within PlausibleRange, and what it refuses lies outside.

/// Decodes the input as 0x2A35, spec layout and Beurer's, and screens it as MeasurementInterpretation does.
/// Kept values are those sent, within their bounds (to the tenth of mmHg it rounds to), diastolic below
/// systolic; a refusal names a value that is special or outside its bounds; a dropped MAP or pulse is outside.
func checkPlausibleReading(_ bytes: UnsafeRawBufferPointer) {
    for quirk in [nil, .beurerByteSwapped] as [BloodPressureQuirk?] {
        guard let sent = try? BloodPressureMeasurement(decoding: bytes, quirk: quirk) else { continue }
        let unit = sent.unit
        do throws(FailureReason) {
            let kept = try PlausibleValues(
                unit: unit, systolic: sent.systolic, diastolic: sent.diastolic,
                meanArterialPressure: sent.meanArterialPressure, pulseRate: sent.pulseRate)
            invariant(kept.systolic == sent.systolic && kept.diastolic == sent.diastolic, "a reading's pressures differ from those sent")
            invariant(within(kept.systolic, .systolic, unit), "a reading with systolic \(kept.systolic) \(unit.rawValue)")
            invariant(within(kept.diastolic, .diastolic, unit), "a reading with diastolic \(kept.diastolic) \(unit.rawValue)")
            invariant(kept.diastolic.doubleValue < kept.systolic.doubleValue, "a reading with diastolic ≥ systolic")
            invariant(kept.meanArterialPressure.map { $0 == sent.meanArterialPressure && within($0, .meanArterialPressure, unit) } ?? true,
                      "a reading with MAP \(sent.meanArterialPressure) \(unit.rawValue)")
            invariant(kept.pulseRate.map { $0 == sent.pulseRate && within($0, .pulseRate, nil) } ?? true, "a reading with pulse \(String(describing: sent.pulseRate))")
            for case let .outside(range, value, dropUnit) in kept.dropped {
                invariant(!within(value, range, dropUnit, tolerance: 0), "\(range.name) \(value) dropped although plausible")
            }
        } catch {
            switch error {
            case .notMeasured:
                invariant(!sent.systolic.isFinite || !sent.diastolic.isFinite, "numbers refused as not measured")
            case let .implausible(.outside(range, value, unit)):
                invariant(!within(value, range, unit, tolerance: 0), "\(range.name) \(value) refused although plausible")
            case let .implausible(.diastolicNotBelowSystolic(diastolic, systolic, _)):
                invariant(diastolic.doubleValue >= systolic.doubleValue, "diastolic \(diastolic) below systolic \(systolic) refused")
            }
        }
    }
}

/// `value` (a pressure in `unit`, or a pulse) lies in `range`, give or take `tolerance` mmHg: the screen
/// compares to the tenth of mmHg. Converted here on its own (1 mmHg = 133.322387415 Pa), not by the screen.
private func within(_ value: MedFloat16, _ range: PlausibleRange, _ unit: PressureUnit?, tolerance: Double = 0.05) -> Bool {
    guard value.isFinite else { return false }
    let converted = unit == .kilopascals ? value.doubleValue * 1000 / 133.322387415 : value.doubleValue
    return converted >= range.bounds.lowerBound - tolerance && converted <= range.bounds.upperBound + tolerance
}
