import BlueZ
import CuffRecording
import GATTHealth

/// One emulated cuff: what it advertises, how it pairs, what it holds, and its timeline.
public struct CuffSpec: Decodable, Sendable, Equatable {
    public var address: BluetoothAddress
    /// The advertised name (Device1 `Name`).
    public var name: String
    /// The company identifier of the manufacturer data it advertises (Device1 `ManufacturerData`, with no bytes after
    /// it), e.g. 18498 (0x4842) for a Medisana cuff; nil for none.
    public var manufacturerID: UInt16?
    /// 16-bit service UUIDs the cuff advertises and exposes (`1810`, `180D`, `180A`, …).
    public var services: [HealthService]
    public var pairing: PairingRequirement
    /// Whether bluetoothd already holds a bond with the cuff (paired and trusted earlier): its
    /// Device1 object exists from the start and survives restarts.
    public var bonded: Bool
    public var deviceInformation: DeviceInformationSpec?
    /// The Blood Pressure Feature 0x2A49 value; `0000` when absent.
    public var feature: HexValue
    /// 0x2A35 values indicated every time a client enables indications (cuffs that re-send history).
    public var storedRecords: [HexValue]
    /// Steps counted from the moment a client enables indications on 0x2A35.
    public var timeline: [TimelineStep]
    /// BPS 1.1 records reported through RACP 0x2A52; nil for a cuff without RACP (then it has no 0x2B34,
    /// 0x2B36 or 0x2A52 either).
    public var records: [RecordSpec]?
    /// The largest 0x2B36 segment, header included; nil for the ATT payload of the emulated MTU.
    public var recordSegmentSize: Int?
    /// The clock served on 0x2A2B; nil for a writable clock that starts at cuff-sim's local time.
    public var clock: ClockSpec?
    /// A vendor protocol, e.g. QardioArm's start/cancel control point.
    public var vendor: VendorProtocol?
    /// Steps played when a client sends the vendor start command, counted from that command.
    public var onStart: [TimelineStep]
    /// An Omron cuff's model and memory (`"vendor": "omron"`, docs/omron.md).
    public var omron: OmronSpec?
    /// An A&D cuff's advertised state (`"vendor": "aAndD"`).
    public var aAndD: AAndDSpec?
    /// A Microlife cuff's users and memory (`"vendor": "microlife"`, docs/reference/GATT-HEALTH.md §13.12).
    public var microlife: MicrolifeSpec?
    /// The cuff switches itself off when a client writes its Record Access Control Point, as a Beurer BM48 does when
    /// asked for its history (docs/reference/GATT-HEALTH.md §13.9): the link ends and it never advertises again.
    public var switchesOffOnRecordRequest: Bool
    /// A cuff of the `recorded` kind: the GATT database and conversation a capture recorded, played back as they were
    /// (docs/cuff-sim.md, "Recorded cuffs"); nil for a cuff the other fields describe.
    public var recorded: RecordedCuff?
    /// The cuff forgets its side of the bond whenever a link ends, as hass-omron takes the Omron HEM-7188T1 to do
    /// (docs/reference/GATT-HEALTH.md §13.13): a later link over the key bluetoothd kept fails with an authentication
    /// failure, and only a fresh `Pair` (after `RemoveDevice`) reads it again; default `false`.
    public var forgetsBondAfterLink: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case address, name, manufacturerID, services, pairing, bonded, deviceInformation, feature, storedRecords, timeline, records,
            recordSegmentSize, clock, vendor, onStart, omron, aAndD, microlife, switchesOffOnRecordRequest, recorded,
            forgetsBondAfterLink
    }

    /// What a recorded cuff takes beside `recorded`: who it is and how it pairs; its database and conversation are the
    /// recording's.
    static let recordedKeys: Set<CodingKeys> = [.address, .name, .pairing, .bonded, .recorded]

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        address = try container.decode(BluetoothAddress.self, forKey: .address)
        name = try container.decode(String.self, forKey: .name)
        pairing = try container.decodeIfPresent(PairingRequirement.self, forKey: .pairing) ?? .none
        bonded = try container.decodeIfPresent(Bool.self, forKey: .bonded) ?? false
        manufacturerID = try container.decodeInteger(UInt16.self, forKey: .manufacturerID)
        recorded = try container.decodeIfPresent(RecordedCuff.self, forKey: .recorded)
        if recorded != nil {
            if let other = container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }).first(where: { !Self.recordedKeys.contains($0) }) {
                throw DecodingError.dataCorruptedError(
                    forKey: other, in: container, debugDescription: "a recorded cuff's services and conversation are in \"recorded\"; not beside it")
            }
            (services, feature, storedRecords, timeline, onStart) = ([], HexValue(bytes: [0, 0]), [], [], [])
            switchesOffOnRecordRequest = false
            forgetsBondAfterLink = false
            return
        }
        let serviceNames = try container.decode([String].self, forKey: .services)
        services = try serviceNames.map { text in
            guard let number = BluetoothUUID.shortNumber(text), let service = HealthService(rawValue: number) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .services, in: container,
                    debugDescription: "\"\(text)\" is not a service cuff-sim emulates (1810, 180D, 180A, 1805, 180F)")
            }
            return service
        }
        deviceInformation = try container.decodeIfPresent(DeviceInformationSpec.self, forKey: .deviceInformation)
        feature = try container.decodeIfPresent(HexValue.self, forKey: .feature) ?? HexValue(bytes: [0, 0])
        storedRecords = try container.decodeIfPresent([HexValue].self, forKey: .storedRecords) ?? []
        timeline = try container.decodeIfPresent([TimelineStep].self, forKey: .timeline) ?? []
        records = try container.decodeIfPresent([RecordSpec].self, forKey: .records)
        recordSegmentSize = try container.decodeInteger(Int.self, forKey: .recordSegmentSize)
        clock = try container.decodeIfPresent(ClockSpec.self, forKey: .clock)
        vendor = try container.decodeIfPresent(VendorProtocol.self, forKey: .vendor)
        onStart = try container.decodeIfPresent([TimelineStep].self, forKey: .onStart) ?? []
        omron = try container.decodeIfPresent(OmronSpec.self, forKey: .omron)
        aAndD = try container.decodeIfPresent(AAndDSpec.self, forKey: .aAndD)
        microlife = try container.decodeIfPresent(MicrolifeSpec.self, forKey: .microlife)
        switchesOffOnRecordRequest = try container.decodeIfPresent(Bool.self, forKey: .switchesOffOnRecordRequest) ?? false
        forgetsBondAfterLink = try container.decodeIfPresent(Bool.self, forKey: .forgetsBondAfterLink) ?? false
    }
}

/// How a cuff pairs: `none`, `justWorks`, or `passkey:123456` (the key it displays).
public enum PairingRequirement: Decodable, Sendable, Equatable {
    case none
    case justWorks
    case passkey(UInt32)

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        switch text {
        case "none": self = .none
        case "justWorks": self = .justWorks
        case _ where text.hasPrefix("passkey:"):
            let digits = text.dropFirst("passkey:".count)
            guard digits.count == 6, let key = UInt32(digits) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a passkey is six digits"))
            }
            self = .passkey(key)
        default:
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not none, justWorks or passkey:NNNNNN"))
        }
    }
}

/// The Device Information strings a cuff serves (0x2A29, 0x2A24, 0x2A25, 0x2A26).
public struct DeviceInformationSpec: Decodable, Sendable, Equatable {
    public var manufacturer: String?
    public var model: String?
    public var serial: String?
    public var firmware: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case manufacturer, model, serial, firmware }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        manufacturer = try container.decodeIfPresent(String.self, forKey: .manufacturer)
        model = try container.decodeIfPresent(String.self, forKey: .model)
        serial = try container.decodeIfPresent(String.self, forKey: .serial)
        firmware = try container.decodeIfPresent(String.self, forKey: .firmware)
    }
}
