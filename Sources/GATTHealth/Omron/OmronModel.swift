/// One Omron model's memory as docs/omron.md §4 tabulates it (omblepy `deviceSpecific/hem-*.py`; hass-omron
/// `omron_ble/device_catalog.py`).
public struct OmronModel: Hashable, Sendable {
    /// The model code, e.g. `HEM-7322T`, looked for in the advertised name and the Model Number String.
    public private(set) var name: String
    public let layout: OmronRecordLayout
    /// Where each user's ring of slots starts; one entry per user.
    public let userStartAddresses: [UInt16]
    public let slotsPerUser: Int
    /// The most bytes one read asks for.
    public let blockSize: Int
    /// Where the settings (counters first) are read, and where changes to them are written.
    public let settingsReadAddress: UInt16
    public let settingsWriteAddress: UInt16
    /// The per-user "next slot / unread" counters and their words' byte order (docs/omron.md §4), or nil
    /// where no source knows them.
    public let counters: OmronCounters.ByteOrder?
    /// Where the clock sits, on the models whose clock a source's contributors have set (docs/omron.md §4a).
    public var clock: OmronClock? = nil
    /// A wrist cuff (hass-omron `README.md`, "Type"): its position bits say whether the wrist was at heart
    /// level (docs/omron.md §5).
    public var isWrist = false
    /// The service the model speaks and how its memory is unlocked (docs/omron.md §1–§2).
    public var stack: OmronStack = .classic
    /// The model whose memory this code names too, where a source lists the code among that model's equivalents
    /// (hass-omron `device_catalog.py` `equivalent_model_ids`, docs/omron.md §4); nil for a model of its own.
    public private(set) var equivalentOf: String? = nil
    /// What the model advertises instead of its code, where a source names it (the HEM-7188T1's `X2+ Connect_…`,
    /// docs/reference/GATT-HEALTH.md §13.13); looked for in the name as the code is.
    public private(set) var advertisedName: String? = nil
    /// The cuff forgets its side of the bond after every link, so cuffd removes the bond when a link ends and pairs anew
    /// when it advertises (hass-omron `BondPolicy.PER_SESSION`; docs/omron.md §6).
    public var bondsAnewEveryLink = false

    public var users: Int { userStartAddresses.count }

    /// Whether the per-user counters are known (docs/omron.md §4).
    public var hasCounters: Bool { counters != nil }

    /// The counter block: next slot then unread count per user, 16 bits each (docs/omron.md §4).
    public var counterBlockSize: Int { 8 }

    /// Every model cuffd knows, in the order of docs/omron.md §4.
    public static let table: [OmronModel] = [
        OmronModel(name: "HEM-7150T", layout: .littleEndian16, userStartAddresses: [0x0098], slotsPerUser: 60, blockSize: 0x10,
                   settingsReadAddress: 0x0010, settingsWriteAddress: 0x0054, counters: .littleEndian),
        OmronModel(name: "HEM-7151T", layout: .littleEndian16, userStartAddresses: [0x0098], slotsPerUser: 80, blockSize: 0x10,
                   settingsReadAddress: 0x0010, settingsWriteAddress: 0x0054, counters: .littleEndian, clock: .offset8),
        OmronModel(name: "HEM-7155T", layout: .littleEndian16, userStartAddresses: [0x0098, 0x0458], slotsPerUser: 60, blockSize: 0x10,
                   settingsReadAddress: 0x0010, settingsWriteAddress: 0x0054, counters: .littleEndian, clock: .offset8),
        OmronModel(name: "HEM-7342T", layout: .littleEndian16, userStartAddresses: [0x0098, 0x06D8], slotsPerUser: 100, blockSize: 0x10,
                   settingsReadAddress: 0x0010, settingsWriteAddress: 0x0054, counters: .littleEndian),
        OmronModel(name: "HEM-7343T", layout: .littleEndian16, userStartAddresses: [0x0098, 0x06D8], slotsPerUser: 100, blockSize: 0x10,
                   settingsReadAddress: 0x0010, settingsWriteAddress: 0x0054, counters: .littleEndian, clock: .offset8),
        OmronModel(name: "HEM-7361T", layout: .littleEndian16, userStartAddresses: [0x0098, 0x06D8], slotsPerUser: 100, blockSize: 0x10,
                   settingsReadAddress: 0x0010, settingsWriteAddress: 0x0054, counters: .littleEndian, clock: .offset8),
        OmronModel(name: "HEM-7320T", layout: .littleEndian14, userStartAddresses: [0x02AC, 0x05F4], slotsPerUser: 60, blockSize: 0x2C,
                   settingsReadAddress: 0x0260, settingsWriteAddress: 0x0286, counters: .bigEndian, clock: .linear10),
        hem7322T,
        hem7322T.equivalent("HEM-7280T"),
        hem7322T.equivalent("HEM-7281T"),
        hem7322T.equivalent("HEM-7282T"),
        hem7322T.equivalent("HEM-7321T"),
        OmronModel(name: "HEM-7600T", layout: .bigEndianPacked14(yearBits: 8, irregularHeartbeatFirst: false), userStartAddresses: [0x02AC],
                   slotsPerUser: 100, blockSize: 0x38, settingsReadAddress: 0x0260, settingsWriteAddress: 0x0286, counters: .bigEndian, clock: .mixed),
        OmronModel(name: "HEM-6232T", layout: .bigEndianPacked14(yearBits: 6, irregularHeartbeatFirst: true), userStartAddresses: [0x02E8, 0x0860],
                   slotsPerUser: 100, blockSize: 0x38, settingsReadAddress: 0x0260, settingsWriteAddress: 0x02A4, counters: .bigEndian,
                   clock: .classicOffset8, isWrist: true),
        OmronModel(name: "HEM-7530T", layout: .bigEndianPacked14(yearBits: 6, irregularHeartbeatFirst: false), userStartAddresses: [0x02E8],
                   slotsPerUser: 90, blockSize: 0x10, settingsReadAddress: 0x0260, settingsWriteAddress: 0x02A4, counters: nil, clock: .classicOffset8),
        OmronModel(name: "HEM-6161T", layout: .bigEndianPacked14(yearBits: 8, irregularHeartbeatFirst: false), userStartAddresses: [0x02E8],
                   slotsPerUser: 30, blockSize: 0x10, settingsReadAddress: 0x0260, settingsWriteAddress: 0x02A4, counters: nil,
                   clock: .classicOffset8, isWrist: true),
        // The 0xFE4A models of hass-omron's `device_catalog.py` (HEM-7146T2 is an `equivalent_model_ids` entry of
        // its HEM-7146T): one user, no unread counter (`settings_unread_records_bytes` None), docs/omron.md §7.
        OmronModel(name: "HEM-7142T2", layout: .littleEndian14, userStartAddresses: [0x02E8], slotsPerUser: 14, blockSize: 0x2C,
                   settingsReadAddress: 0x0260, settingsWriteAddress: 0x02A4, counters: nil, clock: .offset8, stack: .modern(tokenUnlock: true)),
        OmronModel(name: "HEM-716BT2", layout: .littleEndian14, userStartAddresses: [0x02E8], slotsPerUser: 30, blockSize: 0x2C,
                   settingsReadAddress: 0x0260, settingsWriteAddress: 0x02A4, counters: nil, clock: .offset8, stack: .modern(tokenUnlock: true)),
        OmronModel(name: "HEM-7146T2", layout: .littleEndian14, userStartAddresses: [0x02E8], slotsPerUser: 30, blockSize: 0x2C,
                   settingsReadAddress: 0x0260, settingsWriteAddress: 0x02A4, counters: nil, clock: .offset8, stack: .modern(tokenUnlock: false)),
        hem7188T1,
        hem7188T1.equivalent("HEM-7183T1"),
    ]

    /// HEM-7188T1 ("X2+ Connect"), as hass-omron's pull request #112 maps it and a real cuff's bytes confirm
    /// (docs/reference/GATT-HEALTH.md §13.13): one user of 30 16-byte slots from 0x01C4, no counters, the "offset 8"
    /// clock, the token unlock, a bond made anew on every link.
    static let hem7188T1 = OmronModel(
        name: "HEM-7188T1", layout: .littleEndian16, userStartAddresses: [0x01C4], slotsPerUser: 30, blockSize: 0x2C,
        settingsReadAddress: 0x0010, settingsWriteAddress: 0x0054, counters: nil, clock: .offset8, stack: .modern(tokenUnlock: true),
        advertisedName: "X2+ Connect", bondsAnewEveryLink: true)

    /// HEM-7322T, whose memory hass-omron's `device_catalog.py` also gives the HEM-7280T (docs/omron.md §4).
    static let hem7322T = OmronModel(
        name: "HEM-7322T", layout: .bigEndianPacked14(yearBits: 8, irregularHeartbeatFirst: false), userStartAddresses: [0x02AC, 0x0824],
        slotsPerUser: 100, blockSize: 0x38, settingsReadAddress: 0x0260, settingsWriteAddress: 0x0286, counters: .bigEndian, clock: .mixed)

    /// The cuff of model code `code`, which a source lists as this model's equivalent: this memory, layout and clock
    /// under its own name (docs/omron.md §4).
    func equivalent(_ code: String) -> OmronModel {
        var model = self
        model.name = code
        model.equivalentOf = name
        model.advertisedName = nil
        return model
    }

    /// The model whose code (or ``advertisedName``) `text` (an advertised name or Model Number String) contains, ignoring case; with
    /// `uuids` (a device's services), only a model of a service among them: a model code names one firmware,
    /// and a cuff of the same name on the other service has another memory (hass-omron `device_catalog.py`
    /// lists HEM-7155T on both).
    public static func named(_ text: String, offering uuids: [String]? = nil) -> OmronModel? {
        let upper = text.uppercased()
        return table.first { model in
            (upper.contains(model.name) || model.advertisedName.map { upper.contains($0.uppercased()) } == true)
                && (uuids?.contains(model.stack.serviceUUID) ?? true)
        }
    }

    /// The models of `stack`'s service, by name.
    public static func names(speaking service: String) -> [String] {
        table.filter { $0.stack.serviceUUID == service }.map(\.name)
    }

    /// The address of `slot` (0-based) of `user` (0-based).
    public func address(user: Int, slot: Int) -> UInt16 {
        userStartAddresses[user] + UInt16(slot * layout.size)
    }
}
