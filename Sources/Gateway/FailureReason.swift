/// Why a measurement yields no reading, only a failed-measurement event (docs/gateway.md, "Plausible values").
public enum FailureReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// The cuff sent a special value (NaN, ±INF, NRes) for systolic or diastolic, as after "Err" on its
    /// display (vectors BPM-R2/R3).
    case notMeasured
    /// The cuff sent numbers no cuff can have measured.
    case implausible(Implausibility)

    public var description: String {
        switch self {
        case .notMeasured: "not measured (systolic or diastolic NaN)"
        case let .implausible(what): "implausible: \(what)"
        }
    }
}
