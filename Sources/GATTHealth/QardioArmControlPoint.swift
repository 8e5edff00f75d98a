/// QardioArm's vendor control characteristic inside the Blood Pressure Service 0x1810: the only known
/// way to start and cancel a measurement from the central (docs/reference/GATT-HEALTH.md §12). **Reverse-engineered,
/// unverified**: no vendor document exists. The characteristic, its properties (write + notify) and the
/// start/cancel writes come from exedre/qcardio-cli `qcardio/commands/arm.py`, dwardu-ltd/offline-qardio-app-ios
/// `BluetoothController.swift` and the blog post "Reversing the QardioArm"; the phase codes rest on qcardio-cli
/// alone.
///
/// Every frame is two bytes (``QardioArmFrame``): a prefix (`F1` for a command the central writes, `F2` for a
/// phase the cuff notifies) and a code.
public enum QardioArmControlPoint {
    /// The characteristic's 128-bit UUID, lower case, as BlueZ's `UUID` property spells it.
    public static let uuid = "583cb5b3-875d-40ed-9098-c39eb0c1983d"

    /// What the central writes (prefix `F1`).
    public enum Command: UInt8, QardioArmFrame, CaseIterable {
        /// The cuff inflates and measures.
        case start = 0x01
        /// The cuff stops and deflates.
        case cancel = 0x02

        public static let prefix: UInt8 = 0xF1
    }

    /// What the cuff notifies while it measures (prefix `F2`).
    public enum Phase: UInt8, QardioArmFrame, CaseIterable {
        case inflating = 0x01
        case measuring = 0x02
        case deflating = 0x03
        case completed = 0x04
        case aborted = 0x05
        case error = 0x06

        public static let prefix: UInt8 = 0xF2
    }

    /// Why a control-point value is not a command or phase.
    public enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Frames are exactly two bytes.
        case length(Int)
        /// The first byte is not the expected prefix.
        case prefix(expected: UInt8, actual: UInt8)
        /// The prefix is right, the code unknown.
        case unknownCode(prefix: UInt8, code: UInt8)

        public var description: String {
            switch self {
            case let .length(count): "QardioArm control point: \(count) bytes, frames are 2"
            case let .prefix(expected, actual): "QardioArm control point: prefix 0x\(Hex.digits(actual)), expected 0x\(Hex.digits(expected))"
            case let .unknownCode(prefix, code): "QardioArm control point: unknown code 0x\(Hex.digits(code)) after 0x\(Hex.digits(prefix))"
            }
        }
    }
}

/// A two-byte QardioArm control-point frame: ``prefix`` then the case's code.
public protocol QardioArmFrame: RawRepresentable<UInt8>, Hashable, Sendable {
    /// `F1` for commands, `F2` for phases.
    static var prefix: UInt8 { get }
}

extension QardioArmFrame {
    /// Decodes a frame; another length, another prefix or an unknown code is an error.
    public init(decoding bytes: some Collection<UInt8>) throws(QardioArmControlPoint.DecodingError) {
        let frame = Array(bytes)
        guard frame.count == 2 else { throw .length(frame.count) }
        guard frame[0] == Self.prefix else { throw .prefix(expected: Self.prefix, actual: frame[0]) }
        guard let value = Self(rawValue: frame[1]) else { throw .unknownCode(prefix: Self.prefix, code: frame[1]) }
        self = value
    }

    public func encoded() -> [UInt8] { [Self.prefix, rawValue] }
}
