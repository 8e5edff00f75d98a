import GATTHealth

/// One step of a cuff's script: after `after` seconds (from the moment a client enables indications on
/// 0x2A35), do one thing.
public struct TimelineStep: Decodable, Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// A notification (PropertiesChanged on Value) of a notify characteristic, e.g. 0x2A36.
        case notify(HealthCharacteristic, HexValue)
        /// An indication of an indicate characteristic, e.g. 0x2A35.
        case indicate(HealthCharacteristic, HexValue)
        /// The cuff drops the link (Connected → false).
        case disconnect
        /// The cuff advertises again, as after its user pressed START.
        case advertise
        /// bluetoothd restarts: org.bluez leaves the bus, every registration is dropped, it comes back.
        case restartBluez
        /// An Omron cuff measures: the record goes into `user`'s next slot (1-based) and counts as unread.
        case measure(user: Int, OmronSlotSpec)
        /// The cuff's user presses START. Played at its time, it does nothing by itself; with `--manual-start` the
        /// timeline waits here for a driver to press START (docs/cuff-sim.md, "START pressed by the driver").
        case pressStart

        var characteristic: HealthCharacteristic? {
            switch self {
            case let .notify(characteristic, _), let .indicate(characteristic, _): characteristic
            default: nil
            }
        }
    }

    public var after: Double
    public var action: Action

    enum CodingKeys: String, CodingKey, CaseIterable { case after, notify, indicate, hex, disconnect, advertise, restartBluez, measure, pressStart, user }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        after = try container.decode(Double.self, forKey: .after)
        guard after >= 0, after.isFinite else {
            throw DecodingError.dataCorruptedError(forKey: .after, in: container, debugDescription: "must be a time ≥ 0 in seconds")
        }
        let actions = [CodingKeys.notify, .indicate, .disconnect, .advertise, .restartBluez, .measure, .pressStart].filter(container.contains)
        guard actions.count == 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: "a step needs exactly one of notify, indicate, disconnect, advertise, restartBluez, measure, pressStart"))
        }
        switch actions[0] {
        case .notify: action = .notify(try Self.characteristic(container, .notify), try container.decode(HexValue.self, forKey: .hex))
        case .indicate:
            action = .indicate(try Self.characteristic(container, .indicate), try container.decode(HexValue.self, forKey: .hex))
        case .disconnect: action = .disconnect
        case .advertise: action = .advertise
        case .pressStart: action = .pressStart
        case .measure:
            action = .measure(user: try container.decodeInteger(Int.self, forKey: .user) ?? 1, try container.decode(OmronSlotSpec.self, forKey: .measure))
        default: action = .restartBluez
        }
        if case .measure = action {
            return
        }
        guard !container.contains(.user) else {
            throw DecodingError.dataCorruptedError(forKey: .user, in: container, debugDescription: "only a measure step names a user")
        }
        if action.characteristic == nil, try container.decode(Bool.self, forKey: actions[0]) != true {
            throw DecodingError.dataCorruptedError(forKey: actions[0], in: container, debugDescription: "must be true")
        }
    }

    private static func characteristic(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) throws -> HealthCharacteristic {
        let text = try container.decode(String.self, forKey: key)
        guard let characteristic = HealthCharacteristic(identifier: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\"\(text)\" is not a known characteristic")
        }
        return characteristic
    }
}

/// Bytes written in hex in a scenario (spaces and colons allowed).
public struct HexValue: Decodable, Sendable, Equatable {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let digits = Array(text.filter { $0 != " " && $0 != ":" })
        guard digits.count.isMultiple(of: 2) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not whole hex bytes"))
        }
        bytes = try stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(digits[index ... index + 1]), radix: 16) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not hex"))
            }
            return byte
        }
    }
}
