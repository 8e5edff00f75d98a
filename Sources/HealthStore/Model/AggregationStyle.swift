/// How samples of a quantity type combine in statistics (`healthkit-hkquantityaggregationstyle*.md`):
/// "Discrete types support average, minimum, and maximum queries. Cumulative types support only
/// sum queries."
public enum AggregationStyle: String, Sendable, Hashable {
    /// Averaged arithmetically; min, max, average and most recent apply (heart rate, blood pressure).
    case discreteArithmetic
    /// Summed over time; only sums apply.
    case cumulative
}
