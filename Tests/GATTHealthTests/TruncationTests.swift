import GATTHealth
import Testing

/// Every prefix of every valid vector: a typed truncation error exactly when the prefix is shorter than
/// the length its flags announce (computed here independently of the decoders), a decode otherwise.
@Suite("Truncated prefixes")
struct TruncationTests {
    static let framed = TestVector.all.filter { $0.valid && ["2A35", "2A36", "2A37", "2A52"].contains($0.characteristic) }

    @Test("every prefix", arguments: framed)
    func everyPrefix(_ vector: TestVector) throws {
        let characteristic = try #require(HealthCharacteristic(identifier: vector.characteristic))
        for length in 0 ..< vector.bytes.count {
            let prefix = Array(vector.bytes.prefix(length))
            let required = Self.requiredLength(characteristic, prefix, quirk: vector.quirk)
            if length < required {
                let error = #expect(throws: GATTDecodingError.self, "\(vector.id) prefix \(length)") {
                    try DecodedCharacteristic.decode(characteristic, prefix, quirk: vector.quirk)
                }
                #expect(error?.isTruncation == true)
            } else {
                #expect(throws: Never.self, "\(vector.id) prefix \(length)") {
                    try DecodedCharacteristic.decode(characteristic, prefix, quirk: vector.quirk)
                }
            }
        }
    }

    /// The spec's length rules (docs/reference/GATT-HEALTH.md §4, §5, §8, §9), restated for the test.
    static func requiredLength(_ characteristic: HealthCharacteristic, _ bytes: [UInt8], quirk: BloodPressureQuirk?) -> Int {
        guard let flags = bytes.first else { return characteristic == .recordAccessControlPoint ? 2 : 1 }
        func bit(_ n: UInt8) -> Int { Int(flags >> n & 1) }
        switch characteristic {
        case .bloodPressureMeasurement, .intermediateCuffPressure:
            let user = quirk == .beurerByteSwapped ? 1 : bit(3)
            return 7 + 7 * bit(1) + 2 * bit(2) + user + 2 * bit(4)
        case .heartRateMeasurement:
            return 2 + bit(0) + 2 * bit(3) + 2 * bit(4)
        case .recordAccessControlPoint:
            guard bytes.count >= 2 else { return 2 }
            switch (flags, bytes[1]) {
            case (0x05, _), (0x06, _), (0x11, _): return 4
            case (_, 0x02), (_, 0x03): return 5
            case (_, 0x04): return 7
            default: return 2
            }
        default:
            return 0
        }
    }
}
