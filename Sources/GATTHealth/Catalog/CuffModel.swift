/// One kind of cuff as docs/compatibility.md lists it: who makes it, how cuffd tells it from its advertisement,
/// which protocol it speaks, whether cuffd reads it, and what cuffd does differently for it. ``CuffCatalog/models``
/// holds every one; recognition (``CuffCatalog/recognise(_:)``), the Gateway's per-cuff behaviour and the
/// measurement quirks come from that one table.
public struct CuffModel: Hashable, Sendable {
    public let brand: String
    /// The model as its maker names it (`UA-651BLE`, `HEM-7322T`).
    public let model: String
    public let protocolKind: CuffProtocol
    /// How an advertisement names the model: any one sign is enough. None: the model is told apart only once
    /// connected (QardioArm's control point, an Omron cuff's Model Number String).
    public let signs: [CuffSign]
    public let verdict: CuffVerdict
    /// A deviation of its 0x2A35 values, decoded with the quirk (docs/reference/GATT-HEALTH.md §13.5).
    public let measurementQuirk: BloodPressureQuirk?
    /// What the Gateway does differently on its links.
    public let behaviour: CuffBehaviour
    /// What its advertisement can say about its state, worth saying in `cuffctl scan`.
    public let advertisedStates: [AdvertisedState]

    public init(
        brand: String, model: String, protocolKind: CuffProtocol, signs: [CuffSign], verdict: CuffVerdict,
        measurementQuirk: BloodPressureQuirk? = nil, behaviour: CuffBehaviour = [], advertisedStates: [AdvertisedState] = []
    ) {
        self.brand = brand
        self.model = model
        self.protocolKind = protocolKind
        self.signs = signs
        self.verdict = verdict
        self.measurementQuirk = measurementQuirk
        self.behaviour = behaviour
        self.advertisedStates = advertisedStates
    }

    /// `A&D UA-651BLE`.
    public var title: String { brand + " " + model }

    /// Whether `advertisement` carries one of the model's signs.
    public func matches(_ advertisement: CuffAdvertisement) -> Bool {
        signs.contains { $0.holds(for: advertisement) }
    }

    /// What `advertisement` says of the cuff's state, in words (``advertisedStates``).
    public func states(in advertisement: CuffAdvertisement) -> [String] {
        advertisedStates.filter { $0.sign.holds(for: advertisement) }.map(\.meaning)
    }
}

/// What names a model in an advertisement: its name (Device1 `Name`, compared ignoring case), a service UUID it
/// advertises (`UUIDs`), or the company identifier of its manufacturer data (`ManufacturerData`).
public enum CuffSign: Hashable, Sendable {
    case namePrefix(String)
    case nameContains(String)
    case service(String)
    case manufacturer(UInt16)
    /// An Omron model code in the name, on a device that offers the model's Omron service or neither of Omron's: a
    /// code names one firmware, and the same code on the other service has another memory (docs/omron.md §6).
    case omronCode(String, service: String)

    func holds(for advertisement: CuffAdvertisement) -> Bool {
        switch self {
        case let .namePrefix(prefix): advertisement.upperName?.hasPrefix(prefix.uppercased()) ?? false
        case let .nameContains(fragment): advertisement.upperName?.contains(fragment.uppercased()) ?? false
        case let .service(uuid): advertisement.uuids.contains(uuid)
        case let .manufacturer(company): advertisement.manufacturers.contains(company)
        case let .omronCode(code, service):
            (advertisement.upperName?.contains(code) ?? false)
                && (advertisement.uuids.contains(service) || !OmronStack.isOffered(in: advertisement.uuids))
        }
    }
}

/// A state a model's advertisement shows, and what it means for its owner (`cuffctl scan`).
public struct AdvertisedState: Hashable, Sendable {
    public let sign: CuffSign
    public let meaning: String

    public init(sign: CuffSign, meaning: String) {
        self.sign = sign
        self.meaning = meaning
    }
}

/// What the Gateway does differently on a model's links (docs/compatibility.md, each model's quirk).
public struct CuffBehaviour: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Once `cuffctl pair` has made the bond, A&D's disconnect request (``AAndDService/disconnectRequest``) ends the link,
    /// as A&D's own pairing does (obniz `UA1200BLE.pairingWait`).
    public static let releaseAfterPairing = CuffBehaviour(rawValue: 1 << 0)
    /// Its stored records are never asked for through RACP 0x2A52, even where it offers them: a Beurer BM48 switches
    /// itself off when asked for its history (docs/reference/GATT-HEALTH.md §13.9). What it indicates on 0x2A35 is stored.
    public static let neverAskForRecords = CuffBehaviour(rawValue: 1 << 1)
}

/// The protocol a model speaks, as the matrix names it.
public enum CuffProtocol: String, Hashable, Sendable, CaseIterable {
    case bloodPressureService = "Blood Pressure Service 0x1810"
    case heartRateService = "Heart Rate Service 0x180D"
    case qardioArm = "0x1810 + QardioArm control point"
    case omronClassic = "Omron ecbe3980"
    case omronModern = "Omron 0xFE4A"
    case microlife = "Microlife 0xFFF0"
    case iHealth = "iHealth's own"
    case withingsCloud = "Withings cloud"
}
