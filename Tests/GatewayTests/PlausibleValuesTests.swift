import GATTHealth
import Testing
@testable import Gateway

/// Readings outside the plausible ranges of docs/gateway.md ("Plausible values") are failed measurements.
@Suite("Plausible values")
struct PlausibleValuesTests {
    func interpret(_ bytes: [UInt8], device: DeviceIdentity = Fixtures.cuff) throws -> MeasurementInterpretation {
        let measurement = try BloodPressureMeasurement(decoding: bytes, quirk: device.quirk)
        return MeasurementInterpretation(measurement, payload: bytes, device: device, users: UserDirectory(), receivedAt: Fixtures.receivedAt)
    }

    /// The failure's reason as the journal logs it, or nil when the packet became a reading.
    func failure(_ bytes: [UInt8]) throws -> String? {
        guard case let .failed(failure) = try interpret(bytes) else { return nil }
        #expect(failure.payload == bytes)
        return failure.reason.description
    }

    /// A measurement in `unit` with SFLOATs `mantissa`·10^`exponent` (MAP the midpoint, pulse 64/min unless given).
    func packet(
        _ systolic: (Int32, Int8), _ diastolic: (Int32, Int8), map: MedFloat16? = nil, pulse: MedFloat16? = MedFloat16(mantissa: 64, exponent: 0),
        unit: PressureUnit = .millimetresOfMercury
    ) -> [UInt8] {
        BloodPressureMeasurement(
            unit: unit, systolic: MedFloat16(mantissa: systolic.0, exponent: systolic.1)!,
            diastolic: MedFloat16(mantissa: diastolic.0, exponent: diastolic.1)!,
            meanArterialPressure: map ?? MedFloat16(bitPattern: 0), pulseRate: pulse
        ).encoded()
    }

    @Test("All-FF 0x2A35 of full length (-0.1 kPa, user 255, status 0xFFFF) is no reading")
    func allFF() throws {
        let bytes = [UInt8](repeating: 0xFF, count: 19)  // flags FF: kPa, time stamp, pulse, user, status: 1+6+7+2+1+2
        #expect(try BloodPressureMeasurement(decoding: bytes).userID == 255)
        #expect(try failure(bytes) == "implausible: systolic -0.1 kPa (-0.75 mmHg) outside 20–300 mmHg")
    }

    @Test("00 00 F8 00 F8 00 F8 (-204.8 mmHg) is no reading")
    func negative() throws {
        #expect(try failure([0x00, 0x00, 0xF8, 0x00, 0xF8, 0x00, 0xF8]) == "implausible: systolic -204.8 mmHg outside 20–300 mmHg")
    }

    @Test("The largest exponent (2047·10^7 = 20 470 000 000 mmHg) is no reading")
    func hugeExponent() throws {
        #expect(try failure([0x00, 0xFF, 0x77, 0xFF, 0x77, 0xFF, 0x77]) == "implausible: systolic 20470000000 mmHg outside 20–300 mmHg")
    }

    @Test("Boundaries in mmHg: systolic 20–300, diastolic 10 up to below the systolic")
    func boundaries() throws {
        #expect(try failure(packet((20, 0), (10, 0))) == nil)
        #expect(try failure(packet((300, 0), (299, 0))) == nil)
        #expect(try failure(packet((199, -1), (10, 0))) == "implausible: systolic 19.9 mmHg outside 20–300 mmHg")
        #expect(try failure(packet((301, 0), (80, 0))) == "implausible: systolic 301 mmHg outside 20–300 mmHg")
        #expect(try failure(packet((120, 0), (99, -1))) == "implausible: diastolic 9.9 mmHg outside 10–300 mmHg")
        #expect(try failure(packet((120, 0), (120, 0))) == "implausible: diastolic 120 mmHg not below systolic 120 mmHg")
        #expect(try failure(packet((72, 0), (81, 0))) == "implausible: diastolic 81 mmHg not below systolic 72 mmHg")
    }

    @Test("kPa is converted before the check (1 mmHg = 0.133322387415 kPa), to the tenth of mmHg")
    func kilopascals() throws {
        // 40.0 kPa = 300.02 mmHg, a kPa cuff's step nearest to 300; 2.7 kPa = 20.25 mmHg.
        #expect(try failure(packet((400, -1), (27, -1), unit: .kilopascals)) == nil)
        #expect(try failure(packet((401, -1), (80, -1), unit: .kilopascals)) == "implausible: systolic 40.1 kPa (300.77 mmHg) outside 20–300 mmHg")
        #expect(try failure(packet((160, -1), (26, -1), unit: .kilopascals)) == nil)  // diastolic 19.5 mmHg
        #expect(try failure(packet((26, -1), (13, -1), unit: .kilopascals)) == "implausible: systolic 2.6 kPa (19.5 mmHg) outside 20–300 mmHg")
        // In mmHg the same numbers would pass: the unit decides.
        #expect(try failure(packet((45, 0), (30, 0), unit: .kilopascals)) == "implausible: systolic 45 kPa (337.53 mmHg) outside 20–300 mmHg")
        #expect(try failure(packet((45, 0), (30, 0))) == nil)
    }

    @Test("An implausible pulse or MAP is dropped and named; the pressures stay a reading")
    func optionalValuesAreDropped() throws {
        let bytes = packet((120, 0), (80, 0), map: MedFloat16(mantissa: -5, exponent: 0), pulse: MedFloat16(mantissa: 241, exponent: 0))
        guard case let .reading(reading) = try interpret(bytes) else { Issue.record("not a reading"); return }
        #expect(reading.systolic.doubleValue == 120 && reading.diastolic.doubleValue == 80)
        #expect(reading.pulseRate == nil && reading.meanArterialPressure == nil)
        #expect(reading.dropped.map(\.description) == ["MAP -5 mmHg outside 10–300 mmHg", "pulse 241/min outside 30–240/min"])
    }

    @Test("Pulse boundaries 30 and 240/min are kept; 29 is dropped")
    func pulseBoundaries() throws {
        for (pulse, kept) in [(30, true), (240, true), (29, false)] {
            guard case let .reading(reading) = try interpret(packet((120, 0), (80, 0), pulse: MedFloat16(mantissa: Int32(pulse), exponent: 0)))
            else { Issue.record("not a reading"); continue }
            #expect((reading.pulseRate?.doubleValue == Double(pulse)) == kept)
            #expect(reading.dropped.isEmpty == kept)
        }
    }

    @Test("Stored records through RACP, 0x2B34 and 0x2A35, are held to the same ranges: an event, nothing stored")
    func storedRecords() async {
        let store = InMemoryReadingStore()
        let session = CuffSession(device: Fixtures.cuff, users: UserDirectory(), store: store)
        let enhanced = EnhancedBloodPressureMeasurement(
            systolic: MedFloat16(bitPattern: 0xF800), diastolic: MedFloat16(mantissa: 80, exponent: 0)!,
            meanArterialPressure: MedFloat16(mantissa: 93, exponent: 0)!).encoded()
        for (sequence, characteristic, bytes) in [
            (7, HealthCharacteristic.enhancedBloodPressureMeasurement, enhanced), (8, .bloodPressureMeasurement, [0x00, 0xFF, 0x77, 0xFF, 0x77, 0xFF, 0x77]),
        ] {
            let events = await session.handle(.storedRecord(sequenceNumber: UInt16(sequence), characteristic, bytes, receivedAt: Fixtures.receivedAt))
            guard case let .measurementFailed(failure) = events.first else { Issue.record("\(events)"); continue }
            #expect(failure.reason.description.hasPrefix("implausible: systolic"))
            #expect(failure.payload == bytes)
        }
        #expect(await store.readings.isEmpty)
    }
}
