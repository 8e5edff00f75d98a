import GATTHealth
import PropertyBased
import Testing

@Suite("SFLOAT and FLOAT")
struct MedFloatTests {
    @Test("SFLOAT vectors", arguments: TestVector.of("SFLOAT"))
    func sfloatVector(_ vector: TestVector) {
        let value = MedFloat16(bitPattern: UInt16(vector.bytes[0]) | UInt16(vector.bytes[1]) << 8)
        expectScalar(value, vector)
    }

    @Test("FLOAT vectors", arguments: TestVector.of("FLOAT"))
    func floatVector(_ vector: TestVector) {
        let pattern = vector.bytes.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        expectScalar(MedFloat32(bitPattern: pattern), vector)
    }

    private func expectScalar(_ value: some MedicalFloat, _ vector: TestVector) {
        #expect(ExpectedValue.of(value) == vector.expected["value"])
        if case let .number(mantissa) = vector.expected["mantissa"] ?? .null {
            #expect(Double(value.mantissa) == mantissa)
            #expect(vector.expected["exponent"] == .number(Double(value.exponent)))
        } else {
            #expect(!value.isFinite)
        }
    }

    @Test func specialValuesMatchOnTheWholePattern() {
        #expect(MedFloat16(bitPattern: 0xF7FF).special == nil)
        #expect(MedFloat16(bitPattern: 0xF7FF).description == "204.7")
        #expect(MedFloat16(bitPattern: 0x07FF).special == .nan)
        #expect(MedFloat16(bitPattern: 0x17FF).special == nil)
        #expect(MedFloat32(bitPattern: 0x017F_FFFF).special == nil)
        #expect(MedFloat32(bitPattern: 0x007F_FFFF).special == .nan)
    }

    @Test func precisionIsKept() {
        #expect(MedFloat16(bitPattern: 0xE0C8).description == "2.00")
        #expect(MedFloat16(bitPattern: 0xF014).description == "2.0")
        #expect(MedFloat16(bitPattern: 0x0002).description == "2")
        #expect(MedFloat16(bitPattern: 0xFF5E).description == "-16.2")
        #expect(MedFloat16(bitPattern: 0x2024).description == "3600")
        #expect(MedFloat16(mantissa: 5, exponent: -3)?.description == "0.005")
        #expect(MedFloat16(mantissa: -5, exponent: -3)?.description == "-0.005")
        #expect(MedFloat16(bitPattern: 0xF4B5).description == "120.5")
    }

    @Test func negativeExponentsDivide() {
        // 189 × 0.1 would be 18.900000000000002.
        #expect(MedFloat16(bitPattern: 0xF0BD).doubleValue == 18.9)
        #expect(MedFloat32(bitPattern: 0xFE12_D687).doubleValue == 12345.67)
    }

    @Test func specialValuesAsDouble() {
        #expect(MedFloat16(.positiveInfinity).doubleValue == .infinity)
        #expect(MedFloat16(.negativeInfinity).doubleValue == -.infinity)
        for special in [MedFloatSpecial.nan, .notAtThisResolution, .reserved] {
            #expect(MedFloat16(special).doubleValue.isNaN)
            #expect(MedFloat32(special).doubleValue.isNaN)
        }
        for special in MedFloatSpecial.allCases {
            #expect(MedFloat16(special).special == special)
            #expect(MedFloat32(special).special == special)
        }
    }

    @Test func encoderKeepsClearOfReservedPatterns() {
        #expect(MedFloat16(mantissa: 2045, exponent: 0) != nil)
        #expect(MedFloat16(mantissa: 2046, exponent: 0) == nil)
        #expect(MedFloat16(mantissa: -2046, exponent: 3) == nil)
        #expect(MedFloat16(mantissa: 1, exponent: 8) == nil)
        #expect(MedFloat16(mantissa: 1, exponent: -9) == nil)
        #expect(MedFloat16(120.5, fractionDigits: 1)?.bitPattern == 0xF4B5)
        #expect(MedFloat32(mantissa: 0x7F_FFFE, exponent: 0) == nil)
    }

    @Test func sfloatRoundTrips() async {
        await propertyCheck(input: Gen.int32(in: -2045 ... 2045), Gen.int8(in: -8 ... 7)) { mantissa, exponent in
            let value = MedFloat16(mantissa: mantissa, exponent: exponent)
            #expect(value?.mantissa == mantissa)
            #expect(value?.exponent == exponent)
            #expect(value?.special == nil)
        }
    }

    @Test func floatRoundTrips() async {
        await propertyCheck(input: Gen.int32(in: -0x7F_FFFD ... 0x7F_FFFD), Gen.int8(in: -128 ... 127)) { mantissa, exponent in
            let value = MedFloat32(mantissa: mantissa, exponent: exponent)
            #expect(value?.mantissa == mantissa)
            #expect(value?.exponent == exponent)
            #expect(value?.special == nil)
        }
    }
}
