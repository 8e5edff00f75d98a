import ArgumentParser
import GATTHealth

/// What `cuffctl decode` decodes: a characteristic (by 16-bit UUID, 128-bit UUID or name), or a bare
/// IEEE 11073 `sfloat` / `float` scalar.
enum DecodeTarget: ExpressibleByArgument {
    case characteristic(HealthCharacteristic)
    case medFloat16
    case medFloat32

    init?(argument: String) {
        switch argument.lowercased() {
        case "sfloat": self = .medFloat16
        case "float": self = .medFloat32
        default:
            guard let characteristic = HealthCharacteristic(identifier: argument) else { return nil }
            self = .characteristic(characteristic)
        }
    }

    static var allValueStrings: [String] {
        HealthCharacteristic.allCases.map(\.commandLineName) + ["sfloat", "float"]
    }
}

extension BloodPressureQuirk: ExpressibleByArgument {
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
