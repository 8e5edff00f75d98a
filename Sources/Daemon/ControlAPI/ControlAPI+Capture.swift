import BlueZ
import CuffRecording
import DBus
import Gateway
import ReadingQueries

/// `Capture` of `org.cuffd.Gateway1` (docs/dbus-api.md, docs/capture.md): administrators only, since a capture holds
/// whatever the cuff sends, readings of every user included.
extension ControlAPI {
    /// The longest capture asked for: an hour.
    static let longestCapture = 3600.0
    /// The most links a capture may be asked to follow.
    static let mostCaptureLinks: UInt32 = 100

    /// `Capture(s address, d seconds, u links, b keepIdentity)`: `seconds` 0 for no duration (at most
    /// ``CuffGateway/captureLimit``), `links` 0 for no count of links; both 0, until the cuff's first link ends.
    var captureMethod: DBusInterface.Method {
        .init(
            "Capture",
            inputs: [.init("address", .string), .init("seconds", .double), .init("links", .uint32), .init("keepIdentity", .boolean)],
            outputs: [.init("scenario", .string), .init("notes", .array(.string))]
        ) { call in
            _ = try await self.policy.authorize(call, .administrator)
            let target = try Self.address(call.argument(0))
            let seconds: Double = try call.argument(1)
            guard seconds == 0 || (seconds > 0 && seconds <= Self.longestCapture) else {
                throw ControlError.invalidArguments("capture for up to \(Int(Self.longestCapture)) s, or 0 for no duration; not \(seconds)")
            }
            let links: UInt32 = try call.argument(2)
            guard links <= Self.mostCaptureLinks else {
                throw ControlError.invalidArguments("capture until up to \(Self.mostCaptureLinks) links have ended, or 0 for no count; not \(links)")
            }
            let keepIdentity: Bool = try call.argument(3)
            let duration: Duration? = seconds == 0 ? nil : Self.duration(seconds)
            let scenario = try await self.request {
                try await $0.capture(target, links: links == 0 ? nil : Int(links), for: duration, keepIdentity: keepIdentity)
            }
            return [.string(scenario.json), scenario.cuff.notes.dbusValue]
        }
    }
}
