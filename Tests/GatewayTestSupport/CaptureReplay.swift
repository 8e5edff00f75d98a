import CuffRecording
import CuffSimulation
import Foundation

/// The scenario a capture round trip replays (docs/capture.md): the cuffs a capture recorded, one recording each, in
/// one file, expecting what the original scenario expected of each cuff, under the address its recording gives it.
public enum CaptureReplay {
    /// `recordings` (one per cuff of the shipped scenario `original`, in its order) as one scenario, on the first
    /// recording's adapter, with the original's `expect` at the recorded addresses.
    public static func scenario(_ recordings: [RecordedScenario], replaying original: String) throws -> Data {
        try scenario(recordings, replaying: Data(contentsOf: EmbeddedPeripheral.scenarioFolder.appendingPathComponent(original)))
    }

    /// The same for the scenario file `original` holds.
    public static func scenario(_ recordings: [RecordedScenario], replaying original: Data) throws -> Data {
        let originalText = String(decoding: original, as: UTF8.self)
        let originalScenario = try Scenario.parse(original)
        var document = try object(Data(recordings[0].json.utf8))
        document["cuffs"] = try recordings.flatMap { try object(Data($0.json.utf8))["cuffs"] as? [Any] ?? [] }
        if let expect = try object(Data(originalText.utf8))["expect"] {
            var text = String(decoding: try JSONSerialization.data(withJSONObject: expect), as: UTF8.self)
            for (cuff, recording) in zip(originalScenario.cuffs, recordings) {
                text = text.replacingOccurrences(of: cuff.address.description, with: recording.address)
            }
            document["expect"] = try JSONSerialization.jsonObject(with: Data(text.utf8))
        }
        return try JSONSerialization.data(withJSONObject: document)
    }

    private static func object(_ data: Data) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
