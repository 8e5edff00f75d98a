import DBus
import ForwardingStatus
import Foundation
import GATTHealth
import PropertyBased
import Testing
@testable import cuffctl

/// cuffctl's lines for people, given what a device in radio range sends (docs/cuffctl.md, "Strings from devices"):
/// every string escaped on its one line, JSON exact; pressures rounded.
@Suite("Human output")
struct HumanOutputTests {
    /// The name from the report of a cuff advertising it (cuffctl scan | cat -v).
    static let hostileName = "\u{1B}]0;pwned\u{07}\u{1B}[2J\nX-Injected: 1"

    static func cuff(name: String, manufacturer: String = "cuffd project", model: String = "SIM-1", serial: String = "0001", state: String = "disconnected") -> CuffListing.Cuff {
        CuffListing.Cuff(properties: [
            "Address": DBusVariant("C4:F3:12:53:F2:C9"), "Name": DBusVariant(name), "State": DBusVariant(state),
            "Paired": DBusVariant(true), "Trusted": DBusVariant(true), "Manufacturer": DBusVariant(manufacturer),
            "Model": DBusVariant(model), "Serial": DBusVariant(serial),
        ])
    }

    /// No character a terminal acts on, and so no second line.
    static func expectSafe(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!line.unicodeScalars.contains(where: DeviceText.actsOnTerminal), "\(line.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test("devices and status: the issue's name shown escaped on the cuff's line; devices --json carries it exactly")
    func hostileNameInTheCuffLine() {
        let cuff = Self.cuff(name: Self.hostileName, serial: "x\u{1B}[31mRED")
        #expect(cuff.line.hasPrefix(#"C4:F3:12:53:F2:C9  \x1b]0;pwned\x07\x1b[2J\x0aX-Injected: 1  disconnected  paired, trusted"#))
        #expect(cuff.json.rendered.contains(#""name":"\u001b]0;pwned\u0007\u001b[2J\nX-Injected: 1""#))
        #expect(cuff.json.rendered.contains(#""serial":"x\u001b[31mRED""#))
    }

    @Test("devices and status: any name, maker, model and state stay on the cuff's one line")
    func anyCuffLine() async {
        await propertyCheck(count: 500, input: DeviceText.strings, DeviceText.strings, DeviceText.strings, DeviceText.strings) { name, manufacturer, model, state in
            Self.expectSafe(Self.cuff(name: name, manufacturer: manufacturer, model: model, state: state).line)
        }
    }

    @Test("readings, start and heart-rate: any address and person stay on the reading's one line")
    func anyReadingLine() async {
        await propertyCheck(count: 500, input: DeviceText.strings, DeviceText.strings) { address, person in
            let reading = ExportSamples.reading(person: person, address: address)
            Self.expectSafe(reading.line)
            Self.expectSafe(HeartRateOutput(ExportSamples.reading(person: person, address: address)).line)
        }
    }

    @Test("forward status: any gateway name, sync identifier and error stay on their own lines")
    func anyForwardStatus() async {
        await propertyCheck(count: 500, input: DeviceText.strings, DeviceText.strings, DeviceText.strings) { gateway, identifier, error in
            var status = ForwardStatus(gateway: gateway, state: .forwarding, since: 1_000, anchor: 5)
            status.lastSyncIdentifier = identifier
            status.lastMeasuredAt = 900
            status.lastAcknowledgedAt = 990
            status.othersReadings = 2
            status.lastError = error
            status.lastErrorAt = 1_000
            let lines = ForwardStatusCommand.text(status, pending: 1, pendingHeartRates: nil, lagSeconds: 3, now: 1_060).components(separatedBy: "\n")
            #expect(lines.count == 5)
            lines.forEach { Self.expectSafe($0) }
        }
    }

    @Test("decode: any Device Information string is one escaped line; --json keeps it exact")
    func anyDeviceInformationString() async throws {
        let report = try DecodeReport(.characteristic(.serialNumberString), Array("x\u{1B}[31mRED".utf8), quirk: nil)
        #expect(report.text.components(separatedBy: "\n").last == #"  value  x\x1b[31mRED"#)
        #expect(report.json.rendered.contains(#""value":"x\u001b[31mRED""#))
        await propertyCheck(count: 500, input: DeviceText.strings) { text in
            let lines = try DecodeReport(.characteristic(.modelNumberString), Array(text.utf8), quirk: nil).text.components(separatedBy: "\n")
            #expect(lines.count == 2)
            lines.forEach { Self.expectSafe($0) }
        }
    }

    @Test("A kPa cuff's reading, stored converted to mmHg, is shown in whole mmHg; JSON keeps the stored values")
    func kilopascalReadingRounded() {
        let reading = ExportSamples.reading(systolic: 120.00985213530501, diastolic: 79.50652703963956, pulse: 66.4)
        #expect(reading.line.contains("  120/80 mmHg  pulse 66/min  C4:F3:12:53:F2:C9  user 1 (alice)"), "\(reading.line)")
        #expect(reading.json.rendered.contains(#""systolic":120.00985213530501,"diastolic":79.50652703963956"#))
        #expect(ReadingOutput.whole(-0.4) == "0" && ReadingOutput.whole(119.5) == "120" && ReadingOutput.whole(.nan) == "nan")
    }
}
