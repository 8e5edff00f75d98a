/// Scenario files for the emulator tests: one cuff, C4:F3:12:53:F2:C9, with what each test varies.
enum ScenarioText {
    /// A 0x2A35 record (mmHg, time stamp, pulse) and a second one, in the layout of TEST-VECTORS.json, 19 bytes each.
    static let recordA = "1E7A0050005D00EA070B160A1E004800010000"
    static let recordB = "1E7C0056006100EA070B160B05004700010000"

    /// Enhanced Blood Pressure Measurement 0x2B34 values (mmHg, time stamp from 2000, pulse), as BPS 1.1 records hold them.
    static let enhancedA = "46 80 00 54 00 63 00 D8 9E 92 32 46 00"
    static let enhancedB = "46 7D 00 52 00 60 00 0C F1 93 32 44 00"
    static let enhancedC = "4E 77 00 4D 00 5B 00 9C 41 95 32 42 00 01"

    /// `extra` is spliced into the cuff's object, e.g. `"records": [...]`.
    static func oneCuff(
        pairing: String = "none", bonded: Bool = false, storedRecords: [String] = [],
        timeline: String = "[]", temporaryTimeout: Double = 30, services: String = #"["1810", "180A"]"#,
        feature: String = "2700", extra: String = ""
    ) -> String {
        """
        {
          "adapter": {"address": "00:1A:7D:DA:71:13", "temporaryTimeout": \(temporaryTimeout)},
          "cuffs": [{
            "address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": \(services),
            "pairing": "\(pairing)", "bonded": \(bonded),
            "deviceInformation": {"manufacturer": "cuffd project", "model": "SIM-1"},
            "feature": "\(feature)",
            "storedRecords": [\(storedRecords.map { "\"\($0)\"" }.joined(separator: ", "))],
            "timeline": \(timeline)\(extra.isEmpty ? "" : ",\n    " + extra)
          }]
        }
        """
    }
}
