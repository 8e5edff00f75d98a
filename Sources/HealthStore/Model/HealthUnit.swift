import Foundation

/// The physical dimension a ``HealthUnit`` measures. Units convert only within one dimension.
///
/// HealthKit: "Units are compatible when they measure the same dimension"; `count` and `%` are
/// both scalar but not convertible (HealthKit: `HKUnit.count()`, docs/reference/HEALTH-STORE.md §1), so they get
/// separate dimensions here.
public enum UnitDimension: String, Sendable, Hashable, CaseIterable {
    /// Pressure; SI base Pa.
    case pressure
    /// Events per time; SI base 1/s (Hz).
    case frequency
    /// Plain counts.
    case count
    /// Percentages.
    case percent
}

/// A unit of measure parsed from a HealthKit or UCUM unit string.
///
/// Accepted strings (docs/reference/HEALTH-STORE.md §1, HealthKit: `HKUnit(from:)`, UCUM):
/// pressure `mmHg`, `mm[Hg]`, `kPa`, `Pa`; frequency `count/min`, `/min`, `{beat}/min`, `bpm`, `Hz`;
/// `count`; `%`. Anything else is rejected with ``HealthStoreError/unknownUnit(_:)``.
///
/// Each unit carries its factor to the SI base of its dimension; conversion is
/// `value × factor(from) / factor(to)`, and is the identity when both factors are equal, so
/// `mmHg` ↔ `mm[Hg]` round-trips exactly.
public struct HealthUnit: Sendable, Hashable, CustomStringConvertible {
    /// Pascals per millimetre of mercury: 13.5951 g/cm³ × 9.80665 m/s² × 1 mm
    /// (docs/reference/HEALTH-STORE.md §1 conversion table; Nordic Android-BLE-Library `BloodPressureTypes.java`).
    public static let pascalsPerMillimeterOfMercury = 133.322387415

    /// Canonical spelling (the HealthKit form, e.g. `mmHg`, `count/min`).
    public let symbol: String
    /// The dimension this unit measures.
    public let dimension: UnitDimension
    /// Multiplier to the SI base unit of ``dimension`` (Pa, 1/s, 1).
    public let factorToBase: Double

    /// Millimetres of mercury, the canonical blood-pressure unit.
    public static let millimeterOfMercury = HealthUnit(symbol: "mmHg", dimension: .pressure, factorToBase: pascalsPerMillimeterOfMercury)
    /// Kilopascal (1000 Pa).
    public static let kilopascal = HealthUnit(symbol: "kPa", dimension: .pressure, factorToBase: 1000)
    /// Pascal, the SI pressure unit.
    public static let pascal = HealthUnit(symbol: "Pa", dimension: .pressure, factorToBase: 1)
    /// Beats (counts) per minute, the canonical heart-rate unit (HealthKit's documented `count/min`).
    public static let countPerMinute = HealthUnit(symbol: "count/min", dimension: .frequency, factorToBase: 1.0 / 60.0)
    /// Hertz (1/s); 1 Hz = 60 count/min (docs/reference/HEALTH-STORE.md §1).
    public static let hertz = HealthUnit(symbol: "Hz", dimension: .frequency, factorToBase: 1)
    /// A dimensionless count.
    public static let count = HealthUnit(symbol: "count", dimension: .count, factorToBase: 1)
    /// Percent.
    public static let percent = HealthUnit(symbol: "%", dimension: .percent, factorToBase: 1)

    /// Aliases: HealthKit strings and UCUM codes mapped to the unit they denote.
    static let aliases: [String: HealthUnit] = [
        "mmHg": .millimeterOfMercury, "mm[Hg]": .millimeterOfMercury,
        "kPa": .kilopascal, "Pa": .pascal,
        "count/min": .countPerMinute, "/min": .countPerMinute, "{beat}/min": .countPerMinute,
        "{beats}/min": .countPerMinute, "bpm": .countPerMinute, "Hz": .hertz,
        "count": .count, "%": .percent,
    ]

    init(symbol: String, dimension: UnitDimension, factorToBase: Double) {
        self.symbol = symbol
        self.dimension = dimension
        self.factorToBase = factorToBase
    }

    /// Parses a unit string; throws ``HealthStoreError/unknownUnit(_:)`` for anything not listed.
    public init(parsing string: String) throws(HealthStoreError) {
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        guard let unit = Self.aliases[trimmed] else { throw .unknownUnit(string) }
        self = unit
    }

    /// Whether values in this unit can be converted to `other`.
    public func isCompatible(with other: HealthUnit) -> Bool { dimension == other.dimension }

    /// Converts `value` from this unit to `target`; throws when the dimensions differ.
    public func convert(_ value: Double, to target: HealthUnit) throws(HealthStoreError) -> Double {
        guard isCompatible(with: target) else {
            throw .incompatibleUnit(unit: symbol, expected: target.symbol)
        }
        if factorToBase == target.factorToBase { return value }
        return value * factorToBase / target.factorToBase
    }

    public var description: String { symbol }
}
