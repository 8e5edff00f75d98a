/// Scenario files for the emulator tests: one cuff, C4:F3:12:53:F2:C9, with what each test varies.
enum ScenarioText {
    /// A 0x2A35 record (mmHg, time stamp, pulse) and a second one, in the layout of TEST-VECTORS.json, 19 bytes each.
    static let recordA = "1E7A0050005D00EA070B160A1E004800010000"
    static let recordB = "1E7C0056006100EA070B160B05004700010000"

    static func oneCuff(
        pairing: String = "none", bonded: Bool = false, storedRecords: [String] = [],
        timeline: String = "[]", temporaryTimeout: Double = 30, services: String = #"["1810", "180A"]"#
    ) -> String {
        """
        {
          "adapter": {"address": "00:1A:7D:DA:71:13", "temporaryTimeout": \(temporaryTimeout)},
          "cuffs": [{
            "address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": \(services),
            "pairing": "\(pairing)", "bonded": \(bonded),
            "deviceInformation": {"manufacturer": "cuffd project", "model": "SIM-1"},
            "feature": "2700",
            "storedRecords": [\(storedRecords.map { "\"\($0)\"" }.joined(separator: ", "))],
            "timeline": \(timeline)
          }]
        }
        """
    }
}
