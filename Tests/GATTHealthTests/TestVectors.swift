import Foundation
import GATTHealth

/// One row of Tests/Vectors/TEST-VECTORS.json.
struct TestVector: CustomStringConvertible, Sendable {
    let id: String
    let characteristic: String
    let bytes: [UInt8]
    let valid: Bool
    let expected: [String: ExpectedValue]
    let quirk: BloodPressureQuirk?

    var description: String { id }

    /// The whole vector file.
    static let all: [TestVector] = load()

    static func of(_ characteristic: String) -> [TestVector] { all.filter { $0.characteristic == characteristic } }

    static let fileURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Vectors/TEST-VECTORS.json")

    private static func load() -> [TestVector] {
        let data = try! Data(contentsOf: fileURL)
        let rows = try! JSONSerialization.jsonObject(with: data) as! [[String: Any]]
        return rows.map { row in
            let hex = row["hex"] as! String
            let bytes = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start ..< hex.index(start, offsetBy: 2)], radix: 16)!
            }
            let expected = (row["expected"] as! [String: Any]).mapValues(ExpectedValue.init)
            return TestVector(
                id: row["id"] as! String, characteristic: row["characteristic"] as! String, bytes: bytes,
                valid: row["valid"] as! Bool, expected: expected,
                quirk: (row["quirk"] as? String).flatMap(BloodPressureQuirk.init(rawValue:)))
        }
    }
}

/// An expected field: null, a number, a special-value or other string, or an array of integers.
enum ExpectedValue: Equatable, Sendable {
    case null
    case number(Double)
    case string(String)
    case integers([Int])

    init(_ any: Any) {
        switch any {
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let list as [Any]: self = .integers(list.map { ($0 as! NSNumber).intValue })
        case let number as NSNumber: self = .number(number.doubleValue)
        default: fatalError("unexpected JSON value \(any)")
        }
    }

    /// The expectation for a decoded IEEE 11073 value: its Double, or its special name.
    static func of(_ value: (some MedicalFloat)?) -> ExpectedValue {
        guard let value else { return .null }
        return value.isFinite ? .number(value.doubleValue) : .string(value.description)
    }

    static func of(_ value: (some BinaryInteger)?) -> ExpectedValue {
        value.map { .number(Double($0)) } ?? .null
    }
}
