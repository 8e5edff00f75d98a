import Foundation
import HealthStore

/// A cuff-sim scenario (docs/cuff-sim.md) of one blood-pressure cuff, `device`'s address and Device Information, that
/// indicates each of `indications` — Blood Pressure Measurement 0x2A35 bytes — `after` seconds from the moment a client
/// subscribed to its measurements. `bonded`: bluetoothd already holds its bond, so cuffd connects it at start;
/// otherwise it waits to be paired (`cuffctl pair`).
public func indicatingCuffScenario(_ indications: [(after: Double, bytes: [Int])], device: HealthDevice = syntheticDevice, bonded: Bool = true) -> Data {
    let steps = indications.map { step in
        #"{"after": \#(step.after), "indicate": "2A35", "hex": "\#(step.bytes.map { String(format: "%02X", $0) }.joined(separator: " "))"}"#
    }
    let pairing = bonded ? #""bonded": true"# : #""pairing": "justWorks""#
    return Data("""
        {"adapter": {"address": "00:1A:7D:DA:71:13"},
         "cuffs": [{"address": "\(device.localIdentifier ?? "")", "name": "\(device.name ?? "")", "services": ["1810", "180A"], \(pairing),
                    "deviceInformation": {"manufacturer": "\(device.manufacturer ?? "")", "model": "\(device.model ?? "")", "serial": "\(device.serialNumber ?? "")"},
                    "timeline": [\(steps.joined(separator: ","))]}]}
        """.utf8)
}

/// The same cuff indicating `count` distinct readings, each with its own time stamp: the first `start` seconds after
/// the subscription, then one every `interval` seconds.
public func indicatingCuffScenario(_ device: HealthDevice = syntheticDevice, count: Int, start: Double, interval: Double, bonded: Bool) -> Data {
    indicatingCuffScenario((0..<count).map { index in
        let systolic = 100 + index % 60, minute = index % 60, hour = index / 60 % 24
        return (start + Double(index) * interval, [0x16, systolic, 0, 70, 0, 85, 0, 0xEA, 0x07, 11, 23, hour, minute, index % 60, 66, 0, 0, 0])
    }, device: device, bonded: bonded)
}
