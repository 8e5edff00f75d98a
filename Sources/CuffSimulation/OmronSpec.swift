import GATTHealth

/// An Omron cuff's own protocol (`"vendor": "omron"`, docs/omron.md): which model's memory it has, whether it
/// shows "P" (pairing mode), and each user's records.
public struct OmronSpec: Decodable, Sendable, Equatable {
    /// A model of docs/omron.md §4, by its code (`HEM-7322T`).
    public var model: OmronModel
    /// The cuff shows "P": it takes a new pairing key (docs/omron.md §2). Default true.
    public var pairingMode: Bool
    /// Per user, in user order; at most the model's users.
    public var users: [OmronUserSpec]
    /// How many read answers go out with a broken check byte before good ones (the host must re-read).
    public var corruptReads: Int
    /// What the clock block shows (docs/omron.md §4a), on models whose clock is known; nil: erased (all `FF`).
    public var clock: DateTime?
    /// A 0xFE4A cuff with the token unlock answers the token `91 01` instead of `91 00` (docs/omron.md §2, an
    /// assumption: no source shows a refusal). Default false.
    public var refusesToken: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case model, pairingMode, users, corruptReads, clock, refusesToken }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .model)
        guard let model = OmronModel.table.first(where: { $0.name == name }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .model, in: container,
                debugDescription: "\"\(name)\" is not a model of docs/omron.md §4 (\(OmronModel.table.map(\.name).joined(separator: ", ")))")
        }
        self.model = model
        pairingMode = try container.decodeIfPresent(Bool.self, forKey: .pairingMode) ?? true
        users = try container.decodeIfPresent([OmronUserSpec].self, forKey: .users) ?? []
        corruptReads = try container.decodeInteger(Int.self, forKey: .corruptReads) ?? 0
        refusesToken = try container.decodeIfPresent(Bool.self, forKey: .refusesToken) ?? false
        if let text = try container.decodeIfPresent(String.self, forKey: .clock) {
            guard let time = ClockSpec.dateTime(text) else {
                throw DecodingError.dataCorruptedError(forKey: .clock, in: container, debugDescription: "\"\(text)\" is not a calendar time like 2021-01-01T00:00:00")
            }
            clock = time
        }
    }
}

/// One user's ring of record slots: its records oldest first, written from `firstSlot` on (wrapping), of which
/// the first `read` were already downloaded (so not counted unread).
public struct OmronUserSpec: Decodable, Sendable, Equatable {
    public var firstSlot: Int
    public var read: Int
    public var records: [OmronSlotSpec]

    enum CodingKeys: String, CodingKey, CaseIterable { case firstSlot, read, records }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        firstSlot = try container.decodeInteger(Int.self, forKey: .firstSlot) ?? 0
        read = try container.decodeInteger(Int.self, forKey: .read) ?? 0
        records = try container.decodeIfPresent([OmronSlotSpec].self, forKey: .records) ?? []
    }
}

/// What one slot holds: a record by its fields, or raw bytes (`hex`) for what no cuff should hold.
public enum OmronSlotSpec: Decodable, Sendable, Equatable {
    case record(OmronRecord)
    case raw(HexValue)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case systolic, diastolic, pulse, time, irregularHeartbeat, bodyMovement, cuffTooLoose, lowBattery, position, hex
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let hex = try container.decodeIfPresent(HexValue.self, forKey: .hex) {
            guard container.allKeys.count == 1 else {
                throw DecodingError.dataCorruptedError(forKey: .hex, in: container, debugDescription: "a slot is either hex or a record's fields")
            }
            self = .raw(hex)
            return
        }
        let text = try container.decode(String.self, forKey: .time)
        guard let time = ClockSpec.dateTime(text) else {
            throw DecodingError.dataCorruptedError(forKey: .time, in: container, debugDescription: "\"\(text)\" is not a calendar time like 2024-05-01T07:30:00")
        }
        func value<T: FixedWidthInteger>(_ key: CodingKeys, _ type: T.Type) throws -> T {
            guard let value = try container.decodeInteger(type, forKey: key) else {
                throw DecodingError.keyNotFound(key, .init(codingPath: container.codingPath, debugDescription: "a record needs \(key.stringValue)"))
            }
            return value
        }
        self = .record(OmronRecord(
            systolic: try value(.systolic, UInt16.self), diastolic: try value(.diastolic, UInt8.self),
            pulse: try value(.pulse, UInt8.self), time: time,
            irregularHeartbeat: try container.decodeIfPresent(Bool.self, forKey: .irregularHeartbeat) ?? false,
            bodyMovement: try container.decodeIfPresent(Bool.self, forKey: .bodyMovement) ?? false,
            cuffTooLoose: try container.decodeIfPresent(Bool.self, forKey: .cuffTooLoose) ?? false,
            lowBattery: try container.decodeIfPresent(Bool.self, forKey: .lowBattery) ?? false,
            position: try container.decodeInteger(UInt8.self, forKey: .position) ?? 0))
    }

    /// The slot's bytes in `layout`.
    public func bytes(_ layout: OmronRecordLayout) -> [UInt8] {
        switch self {
        case .record(let record): record.encoded(layout)
        case .raw(let hex): hex.bytes
        }
    }
}
