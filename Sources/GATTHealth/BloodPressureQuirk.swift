/// Known deviations of real cuffs from the Blood Pressure Measurement layout, kept apart from the
/// spec decoder: a quirk is looked up once per device (by its advertised name, in ``CuffCatalog``), never per field.
public enum BloodPressureQuirk: String, CaseIterable, Hashable, Sendable {
    /// Pulse Rate and Measurement Status sent most significant byte first, and a User ID byte sent
    /// although flag bit 3 is clear. Seen on a Beurer BM85 (derdilla/blood-pressure-monitor-fl PR #735
    /// "Add quirks for some Beurer devices", PR #737; vectors BPM-R4…R7); the same project's
    /// `isKnownBigEndianDevice` named the BM48 and the ELITE900 too, untested, until PR #740 took them out again.
    case beurerByteSwapped

    /// The quirk of a device advertising as `name`: its model's in ``CuffCatalog`` (docs/reference/GATT-HEALTH.md
    /// §13.5), or nil for a device that follows the spec.
    public static func forAdvertisedName(_ name: String) -> BloodPressureQuirk? {
        CuffCatalog.recognise(CuffAdvertisement(name: name))?.measurementQuirk
    }

    /// Finds a quirk by its name (`beurerByteSwapped` or `beurer-byte-swapped`).
    public init?(name: String) {
        let folded = name.lowercased().filter { $0 != "-" && $0 != "_" }
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
        self = match
    }
}
