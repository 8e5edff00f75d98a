extension CuffCatalog {
    /// The Omron models people own that cuffd refuses by name, each with its reason (docs/omron.md §7,
    /// docs/reference/GATT-HEALTH.md §13.13): a model of the 0xFE4A service that hass-omron (`device_catalog.py`)
    /// bonds anew on every link, taking it to forget its side of the bond after each one, and whose memory no real
    /// bytes confirm (cuffd reads the HEM-7188T1 and HEM-7380T1, whose bytes are published). Signs: the codes
    /// hass-omron lists for the profile (`equivalent_model_ids`).
    static let omronRefused: [CuffModel] = [
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
