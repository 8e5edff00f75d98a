@testable import Forwarding
import Testing

@Suite("Array parameters")
struct PostgresArrayTests {
    @Test("Each element quoted, quotes and backslashes escaped, nil as NULL, the empty array as {}")
    func literals() {
        #expect(PostgresArray.literal([]) == "{}")
        #expect(PostgresArray.literal(["a", nil, "NULL", "x,y {z}"]) == #"{"a",NULL,"NULL","x,y {z}"}"#)
        #expect(PostgresArray.literal([#"say "hi" \ bye"#]) == #"{"say \"hi\" \\ bye"}"#)
    }

    @Test("Numbers in binary form: one dimension, the NULL flag, the element type, length and lower bound, then each length and value in network byte order")
    func binaryArrays() {
        let header: (Int32, UInt32, Int32) -> [UInt8] = { nulls, oid, count in
            [0, 0, 0, 1] + [0, 0, 0, UInt8(nulls)] + withUnsafeBytes(of: oid.bigEndian, Array.init)
                + withUnsafeBytes(of: count.bigEndian, Array.init) + [0, 0, 0, 1]
        }
        // 1.5 is 0x3FF8000000000000 (IEEE 754 binary64).
        #expect(PostgresArray.binary([1.5, nil] as [Double?]) == header(1, 701, 2) + [0, 0, 0, 8, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(PostgresArray.binary([-2] as [Int64?]) == header(0, 20, 1) + [0, 0, 0, 8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE])
        #expect(PostgresArray.binary([258] as [Int32?]) == header(0, 23, 1) + [0, 0, 0, 4, 0, 0, 1, 2])
        #expect(PostgresArray.binary([1] as [Int16?]) == header(0, 21, 1) + [0, 0, 0, 2, 0, 1])
    }
}
