import DBus
import Foundation
@testable import cuffctl

/// Readings as cuffd sends them (docs/dbus-api.md), for the export formatters' tests.
enum ExportSamples {
    static let zone = TimeZone(identifier: "Europe/Berlin")!

    /// 2026-11-23 06:15:00 UTC, 07:15 in Berlin.
    static let time = 1_795_414_500.0

    static func reading(
        systolic: Double = 118, diastolic: Double = 76, mean: Double? = 90, pulse: Double? = 66, status: UInt16? = 0,
        person: String? = "alice", manufacturer: String = "A&D Medical", syncIdentifier: String = "C4F31253F2C9-1-20261123T071500",
        address: String = "C4:F3:12:53:F2:C9"
    ) -> ReadingOutput {
        var fields: DBusProperties = [
            "systolic": DBusVariant(systolic), "diastolic": DBusVariant(diastolic), "unit": DBusVariant("mmHg"), "time": DBusVariant(time),
            "deviceTime": DBusVariant("2026-11-23T07:15:00"), "userID": DBusVariant(UInt8(1)), "syncIdentifier": DBusVariant(syncIdentifier),
            "syncVersion": DBusVariant(Int64(1)), "cursor": DBusVariant("x"),
            "device": DBusVariant(["address": address, "name": "UA-651", "manufacturer": manufacturer, "model": "UA-651BLE", "serial": "5012345"]),
        ]
        if let mean { fields["meanArterialPressure"] = DBusVariant(mean) }
        if let pulse { fields["pulseRate"] = DBusVariant(pulse) }
        if let status { fields["status"] = DBusVariant(status) }
        if let person { fields["person"] = DBusVariant(person) }
        return ReadingOutput(fields: fields)
    }

    /// The whole text a formatter writes for these readings.
    static func export(_ formatter: some ExportFormatter, _ readings: [ReadingOutput]) -> String {
        var formatter = formatter
        var output = Array(formatter.opening.utf8)
        for reading in readings { formatter.append(reading, to: &output) }
        return String(decoding: output + formatter.closing.utf8, as: UTF8.self)
    }
}
