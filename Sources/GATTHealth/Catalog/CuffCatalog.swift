/// Every kind of cuff cuffd knows, the one table behind `cuffctl scan`'s verdicts, the Gateway's per-model behaviour,
/// the measurement quirks and docs/compatibility.md's matrix (`CompatibilityMatrixTests` holds the page to it). The
/// facts and their sources are in docs/compatibility.md, docs/omron.md and docs/reference/GATT-HEALTH.md §13.
public enum CuffCatalog {
    /// The models, most specific first: a name names a model before a service names a family.
    public static let models: [CuffModel] = named + omron + omronRefused

    /// Families for what no model's sign names: the services every member speaks alike.
    public static let families: [CuffModel] = [
        CuffModel(
            brand: "Omron", model: "(model read once paired)", protocolKind: .omronClassic,
            signs: OmronStack.serviceUUIDs.map(CuffSign.service),
            verdict: .quirk("many advertise only BLESmart_…; the model comes from its Model Number String once paired, and a model "
                + "cuffd cannot read is refused then by name")),
        CuffModel(
            brand: "any", model: "cuff with the Blood Pressure Service", protocolKind: .bloodPressureService,
            signs: [.service(HealthService.bloodPressure.uuid)], verdict: .supported),
        CuffModel(
            brand: "any", model: "heart-rate sensor", protocolKind: .heartRateService,
            signs: [.service(HealthService.heartRate.uuid)], verdict: .supported),
    ]

    /// The model or family an advertisement names; nil for a device that is no cuff cuffd knows of.
    public static func recognise(_ advertisement: CuffAdvertisement) -> CuffModel? {
        models.first { $0.matches(advertisement) } ?? families.first { $0.matches(advertisement) }
    }

    /// The refused Omron model (``omronRefused``) `name` — an advertised name or a Model Number String — names on a
    /// device offering `services`, with why; nil for any other name.
    public static func omronRefusal(_ name: String, offering services: [String]) -> String? {
        omronRefused.first { $0.matches(CuffAdvertisement(name: name, uuids: services)) }?.refusal
    }

    /// Whether cuffd asks the cuff `advertisement` names for its stored records (RACP 0x2A52) where it offers them: not
    /// a model that switches itself off then (``CuffBehaviour/neverAskForRecords``).
    public static func asksForRecords(_ advertisement: CuffAdvertisement) -> Bool {
        recognise(advertisement)?.behaviour.contains(.neverAskForRecords) != true
    }

    /// The models of other makers than Omron (docs/compatibility.md).
    static let named: [CuffModel] = [
        CuffModel(
            brand: "Beurer", model: "BM85", protocolKind: .bloodPressureService, signs: [.nameContains("BM85")],
            verdict: .quirk(byteSwapped), measurementQuirk: .beurerByteSwapped),
        CuffModel(
            brand: "Beurer", model: "BM48", protocolKind: .bloodPressureService, signs: [.nameContains("BM48")],
            verdict: .quirk("it switches itself off when asked for its stored history, so cuffd never asks (no RACP request) "
                + "and stores what it indicates on 0x2A35; decoded as the standard says"),
            behaviour: .neverAskForRecords),
        CuffModel(
            brand: "Beurer", model: "ELITE900", protocolKind: .bloodPressureService, signs: [.nameContains("ELITE900")],
            verdict: .quirk(byteSwapped), measurementQuirk: .beurerByteSwapped),
        CuffModel(
            brand: "A&D", model: "UA-651BLE", protocolKind: .bloodPressureService, signs: [.namePrefix("A&D_UA-651BLE")],
            verdict: .quirk("its clock is set through Date Time 0x2A08 in its Blood Pressure service; it pairs only in its \"Pr\" "
                + "mode (hold START until \"Pr\" shows); it sends each reading once, then ends the link")),
        CuffModel(
            brand: "A&D", model: "UA-1200BLE", protocolKind: .bloodPressureService, signs: [.namePrefix("UA-1200B")],
            verdict: .quirk("its clock is set through Current Time; once paired, cuffd sends A&D's disconnect request as A&D's "
                + "pairing does; it sends each reading once, then ends the link"),
            behaviour: .releaseAfterPairing,
            advertisedStates: [AdvertisedState(
                sign: .service(AAndDService.uuid), meaning: "in cooperation mode: it holds no reading it has not sent")]),
        CuffModel(
            brand: "Medisana", model: "BU 5xx", protocolKind: .bloodPressureService, signs: [.manufacturer(0x4842)],
            verdict: .quirk("it re-sends its whole history on every connection: each reading is stored once")),
        CuffModel(
            brand: "Silvercrest", model: "SBM69", protocolKind: .bloodPressureService, signs: [.nameContains("SBM69")],
            verdict: .quirk(hansDinslage)),
        CuffModel(
            brand: "Sanitas", model: "SBM67", protocolKind: .bloodPressureService, signs: [.nameContains("SBM67")],
            verdict: .quirk(hansDinslage)),
        CuffModel(
            brand: "Microlife", model: "BP3GY1-2N", protocolKind: .microlife, signs: [.nameContains("BP3GY1")],
            verdict: .quirk("hold START for 8 s until the Bluetooth logo flashes to make it reachable; it pairs with no passkey "
                + "as far as the source says; it sends its whole memory on every link: each reading is stored once")),
        CuffModel(
            brand: "Qardio", model: "QardioArm", protocolKind: .qardioArm, signs: [],
            verdict: .quirk("measures when cuffctl start sends F1 01 to its control point (known once connected); takes commands on "
                + "an unencrypted link")),
        CuffModel(
            brand: "iHealth", model: "(every model)", protocolKind: .iHealth, signs: [],
            verdict: .unsupported("iHealth's cuffs speak its own protocol, opened to apps only through iHealth's SDK; nothing "
                + "public to emulate")),
        CuffModel(
            brand: "Withings", model: "BPM Connect", protocolKind: .withingsCloud, signs: [],
            verdict: .unsupported("it sends its readings to Withings' cloud over Wi-Fi, or through Withings' app and SDK over "
                + "Bluetooth; a gateway cannot read them")),
    ]

    static let hansDinslage = "it shows a passkey on its display when it pairs (cuffctl pair --passkey, or typed when asked); "
        + "its pressures and pulse are plain 16-bit integers, which read as the standard's SFLOAT for every value it can "
        + "measure; it re-sends its history on every connection: each reading is stored once"

    static let byteSwapped = "pulse and status sent most significant byte first, a User ID byte without its flag: decoded "
        + "with the beurerByteSwapped quirk"
}

extension CuffCatalog {
    /// Every service UUID a model or family is recognised by, for a discovery filter that lets them all through.
    public static var advertisedServices: [String] {
        var seen: [String] = []
        let signs = (models + families).flatMap { $0.signs + $0.advertisedStates.map(\.sign) }
        for case let .service(uuid) in signs where !seen.contains(uuid) { seen.append(uuid) }
        return seen
    }
}
