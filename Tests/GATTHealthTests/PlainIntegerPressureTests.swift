import GATTHealth
import Testing

/// Silvercrest's SBM69 (and Sanitas' SBM67) send their pressures and pulse as plain little-endian 16-bit integers where
/// the standard has SFLOAT (ignisf/sbm69 `_structures.py`; docs/reference/GATT-HEALTH.md §13.10). cuffd decodes them as
/// SFLOAT, which is right only if the two readings agree for every value such a cuff can send: this checks they do.
@Suite("Plain 16-bit pressures read as SFLOAT")
struct PlainIntegerPressureTests {
    @Test("Every integer from 0 to 2045 is the SFLOAT of the same bits, exponent 0")
    func everyMeasurableValueAgrees() {
        let disagreeing = (UInt16(0)...UInt16(MedFloat16.maximumEncodedMantissa)).filter { bits in
            let value = MedFloat16(bitPattern: bits)
            return value.special != nil || value.exponent != 0 || value.mantissa != Int32(bits)
        }
        #expect(disagreeing.isEmpty)
    }

    @Test("From 2046 on they part: the standard's special values, then negative mantissas and other exponents")
    func aboveThatTheyPart() {
        #expect(MedFloat16(bitPattern: 2046).special != nil)
        #expect(MedFloat16(bitPattern: 2047).special == .nan)
        #expect(MedFloat16(bitPattern: 0x0803).mantissa < 0)
        #expect(MedFloat16(bitPattern: 0x1000).exponent == 1)
    }
}
