import Testing
@testable import HealthStore

/// Units: parsing of HealthKit and UCUM strings, dimension checks, exact conversions (docs/reference/HEALTH-STORE.md §1).
@Suite struct UnitTests {
    @Test(arguments: [
        ("mmHg", HealthUnit.millimeterOfMercury), ("mm[Hg]", .millimeterOfMercury), ("kPa", .kilopascal), ("Pa", .pascal),
        ("count/min", .countPerMinute), ("/min", .countPerMinute), ("{beat}/min", .countPerMinute), ("bpm", .countPerMinute),
        ("Hz", .hertz), ("count", .count), ("%", .percent),
    ])
    func parsesAcceptedStrings(_ string: String, _ expected: HealthUnit) throws {
        #expect(try HealthUnit(parsing: string) == expected)
    }

    @Test(arguments: ["mmhg", "kg", "inHg", "", "count/s", "mm Hg"])
    func rejectsUnknownStrings(_ string: String) {
        #expect(throws: HealthStoreError.unknownUnit(string)) { try HealthUnit(parsing: string) }
    }

    @Test func mmHgToPascalUsesTheCuffdConstant() throws {
        #expect(try HealthUnit.millimeterOfMercury.convert(1, to: .pascal) == 133.322387415)
        #expect(try HealthUnit.pascal.convert(133.322387415, to: .millimeterOfMercury) == 1)
    }

    @Test func kilopascalToMillimeterOfMercury() throws {
        let mmHg = try HealthQuantity(unit: "kPa", doubleValue: 16).doubleValue(for: .millimeterOfMercury)
        #expect(abs(mmHg - 16_000 / 133.322387415) < 1e-12)
        #expect(abs(mmHg - 120.00985) < 1e-4)
    }

    @Test func ucumAndHealthKitSpellingsConvertExactly() throws {
        let ucum = try HealthQuantity(unit: "mm[Hg]", doubleValue: 128.5)
        #expect(try ucum.doubleValue(for: .millimeterOfMercury) == 128.5)
        #expect(try HealthQuantity(unit: "/min", doubleValue: 67).doubleValue(for: .countPerMinute) == 67)
    }

    @Test func hertzIsSixtyPerMinute() throws {
        #expect(try HealthUnit.hertz.convert(1.25, to: .countPerMinute) == 75)
    }

    @Test func dimensionsDoNotMix() {
        #expect(throws: HealthStoreError.incompatibleUnit(unit: "mmHg", expected: "count/min")) {
            try HealthUnit.millimeterOfMercury.convert(1, to: .countPerMinute)
        }
        #expect(!HealthUnit.count.isCompatible(with: .percent))
    }
}

/// The type registry (docs/reference/HEALTH-STORE.md §1 table).
@Suite struct TypeRegistryTests {
    @Test func standardTypesHaveCanonicalUnitsAndDiscreteAggregation() throws {
        let registry = QuantityTypeRegistry.standard
        for id in ["bloodPressureSystolic", "bloodPressureDiastolic", "bloodPressureMean"] {
            #expect(try registry.type(id).canonicalUnit == .millimeterOfMercury)
            #expect(try registry.type(id).aggregationStyle == .discreteArithmetic)
        }
        #expect(try registry.type("heartRate").canonicalUnit == .countPerMinute)
        #expect(registry.all.count == 4)
    }

    @Test func unknownTypeIsATypedError() {
        #expect(throws: HealthStoreError.unknownType("bodyMass")) { try QuantityTypeRegistry.standard.type("bodyMass") }
    }

    @Test func registryIsExtensible() throws {
        let spo2 = QuantityType(identifier: "oxygenSaturation", canonicalUnit: .percent, aggregationStyle: .discreteArithmetic)
        #expect(try QuantityTypeRegistry.standard.registering(spo2).type("oxygenSaturation") == spo2)
    }

    @Test func unregisteredTypeIsRejectedAtSaveAndNothingIsWritten() throws {
        let store = try Fixture.store()
        let spo2 = QuantityType(identifier: "oxygenSaturation", canonicalUnit: .percent, aggregationStyle: .discreteArithmetic)
        let sample = QuantitySample(type: spo2, quantity: HealthQuantity(unit: .percent, doubleValue: 97), start: Fixture.t0, end: Fixture.t0)
        #expect(throws: HealthStoreError.unknownType("oxygenSaturation")) { try store.save([sample], as: Fixture.daemon) }
    }
}
