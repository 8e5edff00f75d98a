import Foundation

/// A cuff-sim scenario (docs/cuff-sim.md) of one bonded cuff, BP-1 with Device Information, that indicates each of
/// `indications` — Blood Pressure Measurement 0x2A35 bytes — `after` seconds from the moment cuffd enabled indications.
public func indicatingCuffScenario(_ indications: [(after: Double, bytes: [Int])]) -> Data {
    let steps = indications.map { step in
        #"{"after": \#(step.after), "indicate": "2A35", "hex": "\#(step.bytes.map { String(format: "%02X", $0) }.joined(separator: " "))"}"#
    }
    return Data("""
        {"adapter": {"address": "00:1A:7D:DA:71:13"},
         "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": ["1810", "180A"], "bonded": true,
                    "deviceInformation": {"manufacturer": "cuffd project", "model": "SIM-1", "serial": "0001"},
                    "timeline": [\(steps.joined(separator: ","))]}]}
        """.utf8)
}
