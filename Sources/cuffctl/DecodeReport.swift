import DecodeArguments
import GATTHealth

/// The fields of one decoded value, in wire order, named as in Tests/Vectors/TEST-VECTORS.json;
/// printed as JSON by `cuffctl decode --json` and as aligned text otherwise.
struct DecodeReport {
    let title: String
    let fields: [(String, JSONValue)]

    init(_ target: DecodeTarget, _ bytes: [UInt8], quirk: BloodPressureQuirk?) throws(GATTDecodingError) {
        switch target {
        case .medFloat16:
            guard bytes.count >= 2 else { throw GATTDecodingError(nil, .truncated(required: 2, actual: bytes.count)) }
            title = "SFLOAT"
            fields = Self.scalarFields(MedFloat16(bitPattern: UInt16(bytes[0]) | UInt16(bytes[1]) << 8), "SFLOAT")
        case .medFloat32:
            guard bytes.count >= 4 else { throw GATTDecodingError(nil, .truncated(required: 4, actual: bytes.count)) }
            let pattern = bytes[0 ..< 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            title = "FLOAT"
            fields = Self.scalarFields(MedFloat32(bitPattern: pattern), "FLOAT")
        case let .characteristic(characteristic):
            title = "\(characteristic.name) (0x\(characteristic.shortUUID))"
            let decoded = try DecodedCharacteristic.decode(characteristic, bytes, quirk: quirk)
            fields = [("characteristic", .string(characteristic.shortUUID))] + decoded.reportFields
        }
    }

    var json: JSONValue { .object(fields) }

    /// A title line, then one `name  value` line per field that is present.
    var text: String {
        let present = fields.filter { $0.0 != "characteristic" && $0.1 != .null }
        let width = present.map(\.0.count).max() ?? 0
        let lines = present.map { name, value in
            "  " + name + String(repeating: " ", count: width - name.count) + "  " + value.plainText
        }
        return ([title] + lines).joined(separator: "\n")
    }

    private static func scalarFields(_ value: some MedicalFloat, _ name: String) -> [(String, JSONValue)] {
        [
            ("characteristic", .string(name)),
            ("value", JSONValue(value)),
            ("mantissa", value.isFinite ? .integer(value.mantissa) : .null),
            ("exponent", value.isFinite ? .integer(value.exponent) : .null),
        ]
    }
}

extension JSONValue {
    /// A finite value as its decimal text, a special value as its name.
    init(_ value: some MedicalFloat) {
        self = value.isFinite ? .number(value.description) : .string(value.description)
    }

    init(_ value: (some MedicalFloat)?) {
        self = value.map { JSONValue($0) } ?? .null
    }

    init(_ value: (some BinaryInteger)?) {
        self = value.map { .integer($0) } ?? .null
    }
}
