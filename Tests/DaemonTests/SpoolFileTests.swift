import BlueZ
import Daemon
import Foundation
import GATTHealth
import Gateway
import Logging
import Testing

@Suite("The spool file")
struct SpoolFileTests {
    static func reading(_ systolic: Int32, sequence: UInt16? = nil) -> Reading {
        Reading(
            device: DeviceIdentity(address: BluetoothAddress("C4:F3:12:53:F2:C9")!, name: "BP-1", manufacturer: "ACME", serial: "7"),
            userID: 1, person: "alice", unit: .millimetresOfMercury, systolic: MedFloat16(mantissa: systolic, exponent: 0)!,
            diastolic: MedFloat16(mantissa: 80, exponent: 0)!, meanArterialPressure: nil, pulseRate: MedFloat16(mantissa: 61, exponent: 0)!,
            status: BloodPressureMeasurementStatus(rawValue: 0x0004), deviceTime: DateTime(year: 2026, month: 11, day: 22, hours: 7, minutes: 30, seconds: 0),
            receivedAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(systolic)), clockOffset: .seconds(-3600), sequenceNumber: sequence,
            payload: [0x1E, UInt8(systolic), 0x00])
    }

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)").path
    }

    @Test("Kept readings survive a reopen exactly; released ones are gone; the file is allocated up front, 0600")
    func roundTrip() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let spool = try SpoolFile(path: path, logger: Logger(label: "test"))
        let kept = [Self.reading(121), Self.reading(122, sequence: 9), Self.reading(123)]
        for reading in kept { try await spool.keep(reading) }
        await spool.release(kept[1].syncIdentifier)

        let reopened = try SpoolFile(path: path, logger: Logger(label: "test"))
        #expect(await reopened.kept() == [kept[0], kept[2]])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        #expect(attributes[.size] as? Int == 1 << 20)
    }

    @Test("A full spool says so; a symbolic link is refused")
    func fullAndLink() async throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let spool = try SpoolFile(path: path, logger: Logger(label: "test"))
        for n in 0 ..< 512 { try await spool.keep(Self.reading(100, sequence: UInt16(n))) }
        await #expect(throws: SpoolFile.SpoolError.self) { try await spool.keep(Self.reading(100, sequence: 999)) }
        let link = temporaryPath()
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(throws: SpoolFile.SpoolError.self) { try SpoolFile(path: link, logger: Logger(label: "test")) }
    }
}
