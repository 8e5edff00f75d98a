extension CuffCatalog {
    /// The Omron models people own that cuffd refuses by name, each with its reason (docs/omron.md §7,
    /// docs/reference/GATT-HEALTH.md §13.13): models of the 0xFE4A service that hass-omron (`device_catalog.py`)
    /// bonds anew on every link, taking them to forget their side of the bond after each one. cuffd bonds anew on every
    /// link only for a model whose memory real bytes confirm (the HEM-7188T1, ``OmronModel/bondsAnewEveryLink``); these
    /// two lack that. Signs: the codes hass-omron lists for each profile (`equivalent_model_ids`).
    static let omronRefused: [CuffModel] = [
        CuffModel(
            brand: "Omron", model: "HEM-7380T1", protocolKind: .omronModern,
            signs: ["HEM-7380T", "HEM-7383T1", "HEM-7384T1"].map { .omronCode($0, service: OmronModernService.uuid) },
            verdict: .unsupported(
                "its memory is published (omblepy and hass-omron agree: two users of 100 16-byte records), but not how it keeps a "
                    + "bond: hass-omron's users see the links after the pairing one fail and hass-omron now bonds anew on every "
                    + "link, while omblepy reads it over a kept bond; cuffd does not know which of the two to follow")),
        CuffModel(
            brand: "Omron", model: "HEM-7196T1", protocolKind: .omronModern,
            signs: ["HEM-7196T1", "HEM-7194T1"].map { .omronCode($0, service: OmronModernService.uuid) },
            verdict: .unsupported(
                "hass-omron's map of its memory was replaced once and is not marked verified, no bytes of a real one are published, "
                    + "and hass-omron bonds it anew on every link")),
    ]
}

extension CuffModel {
    /// Why `cuffctl pair` refuses the model, naming it (exit 76); nil for a model cuffd reads.
    public var refusal: String? {
        guard case let .unsupported(why) = verdict else { return nil }
        return "the \(title) is not supported: \(why)"
    }
}
