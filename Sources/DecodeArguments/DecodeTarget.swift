import ArgumentParser
import GATTHealth

/// What `cuffctl decode` decodes (and Benchmarks/decode-benchmark measures): a characteristic (by 16-bit UUID,
/// 128-bit UUID or name), or a bare IEEE 11073 `sfloat` / `float` scalar.
public enum DecodeTarget: ExpressibleByArgument {
    case characteristic(HealthCharacteristic)
    case medFloat16
    case medFloat32

    public init?(argument: String) {
        switch argument.lowercased() {
        case "sfloat": self = .medFloat16
        case "float": self = .medFloat32
        default:
            guard let characteristic = HealthCharacteristic(identifier: argument) else { return nil }
            self = .characteristic(characteristic)
        }
    }

    public static var allValueStrings: [String] {
        HealthCharacteristic.allCases.map(\.commandLineName) + ["sfloat", "float"]
    }
}

extension BloodPressureQuirk: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
