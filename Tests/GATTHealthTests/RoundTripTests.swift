import GATTHealth
import PropertyBased
import Testing

/// encode → decode over generated values: every encoder writes what its decoder reads back.
@Suite("Round trips")
struct RoundTripTests {
    static let entropy = Gen.uint8().array(of: 48)

    @Test func bloodPressureMeasurement() async {
        await propertyCheck(count: 500, input: Self.entropy) { bytes throws in
            var source = Entropy(bytes)
            let value = BloodPressureMeasurement(
                unit: source.unit(), systolic: source.sfloat(), diastolic: source.sfloat(),
                meanArterialPressure: source.sfloat(), timeStamp: source.maybe { $0.dateTime() },
                pulseRate: source.maybe { $0.sfloat() }, userID: source.maybe { $0.byte() },
                status: source.maybe { BloodPressureMeasurementStatus(rawValue: $0.word()) },
                reservedFlags: source.byte() & 0xE0)
            #expect(try BloodPressureMeasurement(decoding: value.encoded()) == value)
        }
    }

    @Test func intermediateCuffPressure() async {
        await propertyCheck(count: 300, input: Self.entropy) { bytes throws in
            var source = Entropy(bytes)
            let value = IntermediateCuffPressure(
                unit: source.unit(), cuffPressure: source.sfloat(), timeStamp: source.maybe { $0.dateTime() },
                pulseRate: source.maybe { $0.sfloat() }, userID: source.maybe { $0.byte() },
                status: source.maybe { BloodPressureMeasurementStatus(rawValue: $0.word()) })
            #expect(try IntermediateCuffPressure(decoding: value.encoded()) == value)
        }
    }

    @Test func enhancedValues() async {
        await propertyCheck(count: 300, input: Self.entropy) { bytes throws in
            var source = Entropy(bytes)
            let epoch: EpochStart = source.flag() ? .year1900 : .year2000
            let measurement = EnhancedBloodPressureMeasurement(
                unit: source.unit(), epochStart: epoch, systolic: source.sfloat(), diastolic: source.sfloat(),
                meanArterialPressure: source.sfloat(), timeStamp: source.maybe { $0.dword() },
                pulseRate: source.maybe { $0.sfloat() }, userID: source.maybe { $0.byte() },
                status: source.maybe { BloodPressureMeasurementStatus(rawValue: $0.word()) },
                userFacingTime: source.maybe { $0.dword() }, reservedFlags: source.byte())
            #expect(try EnhancedBloodPressureMeasurement(decoding: measurement.encoded()) == measurement)
            let progress = EnhancedIntermediateCuffPressure(
                unit: source.unit(), epochStart: epoch, cuffPressure: source.sfloat(),
                timeStamp: source.maybe { $0.dword() }, pulseRate: source.maybe { $0.sfloat() },
                userFacingTime: source.maybe { $0.dword() })
            #expect(try EnhancedIntermediateCuffPressure(decoding: progress.encoded()) == progress)
        }
    }

    @Test func heartRateMeasurement() async {
        await propertyCheck(count: 500, input: Self.entropy, Gen.int(in: 0 ... RRIntervals.capacity)) { bytes, rrCount throws in
            var source = Entropy(bytes)
            let contacts: [HeartRateMeasurement.SensorContact] = [.notSupported, .notDetected, .detected]
            let value = HeartRateMeasurement(
                heartRate: source.flag() ? source.word() : UInt16(source.byte()), sixteenBitValue: source.flag(),
                sensorContact: contacts[Int(source.byte() % 3)], energyExpended: source.maybe { $0.word() },
                rrIntervals: source.flag() ? RRIntervals((0 ..< max(rrCount, 1)).map { UInt16($0 * 37 + 300) }) : nil,
                reservedFlags: source.byte())
            #expect(try HeartRateMeasurement(decoding: value.encoded()) == value)
        }
    }

    @Test func timeAndDeviceInformation() async {
        await propertyCheck(count: 300, input: Self.entropy) { bytes throws in
            var source = Entropy(bytes)
            let stamp = source.dateTime()
            #expect(try DateTime(decoding: stamp.encoded()) == stamp)
            let current = CurrentTime(
                dateTime: stamp, dayOfWeek: source.byte(), fractions256: source.byte(),
                adjustReason: CurrentTime.AdjustReason(rawValue: source.byte()))
            #expect(try CurrentTime(decoding: current.encoded()) == current)
            let id = SystemID(manufacturerIdentifier: UInt64(source.dword()) << 8 | UInt64(source.byte()),
                              organizationallyUniqueIdentifier: source.dword() & 0xFF_FFFF)
            #expect(try SystemID(decoding: id.encoded()) == id)
            let pnp = PnPID(vendorIDSource: source.byte(), vendorID: source.word(), productID: source.word(), productVersion: source.word())
            #expect(try PnPID(decoding: pnp.encoded()) == pnp)
        }
    }

    @Test func recordAccessControlPoint() async {
        await propertyCheck(count: 300, input: Self.entropy) { bytes throws in
            var source = Entropy(bytes)
            let types: [RecordAccessControlPoint.FilterType] = [.sequenceNumber, .userFacingTime, .omronSequenceNumber]
            let type = types[Int(source.byte() % 3)]
            let limit = type == .userFacingTime ? UInt32.max : UInt32(UInt16.max)
            let candidates: [RecordAccessControlPoint] = [
                .init(opCode: .reportStoredRecords, operator: .greaterThanOrEqualTo, operand: .filter(type, source.dword() % limit)),
                .init(opCode: .deleteStoredRecords, operator: .withinRangeOf,
                      operand: .range(type, minimum: source.dword() % limit, maximum: source.dword() % limit)),
                .init(opCode: .reportNumberOfStoredRecords, operator: .lastRecord),
                .init(opCode: .numberOfStoredRecordsResponse, operator: .null, operand: .numberOfRecords(source.word())),
                .init(opCode: .responseCode, operator: .null, operand: .response(request: source.byte(), code: source.byte())),
                .init(opCode: .omronLatestSequenceNumberResponse, operator: .null, operand: .sequenceNumber(source.word())),
            ]
            for value in candidates { #expect(try RecordAccessControlPoint(decoding: value.encoded()) == value) }
        }
    }

    @Test func recordSegmentation() async {
        await propertyCheck(count: 200, input: Gen.uint8().array(of: 0 ... 120), Gen.int(in: 6 ... 30)) { value, segmentLength throws in
            let segments = BloodPressureRecordSegment.encodeSegments(
                sequenceNumber: 9, recordedCharacteristicUUID: 0x2B34, recordedValue: value, maximumSegmentLength: segmentLength)
            #expect(segments.allSatisfy { $0.count <= segmentLength })
            var assembler = BloodPressureRecordAssembler(feature: [])
            let records = try segments.compactMap { try assembler.append($0) }
            #expect(records.map(\.recordedValue) == [value])
        }
    }
}

/// Draws field values from generated bytes, so one generated array shapes a whole value.
struct Entropy {
    private var bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return bytes[index % bytes.count] &+ UInt8(truncatingIfNeeded: index / bytes.count)
    }

    mutating func word() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }
    mutating func dword() -> UInt32 { UInt32(word()) | UInt32(word()) << 16 }
    mutating func flag() -> Bool { byte() & 1 == 1 }
    mutating func sfloat() -> MedFloat16 { MedFloat16(bitPattern: word()) }
    mutating func unit() -> PressureUnit { flag() ? .kilopascals : .millimetresOfMercury }

    mutating func dateTime() -> DateTime {
        DateTime(year: word(), month: byte(), day: byte(), hours: byte(), minutes: byte(), seconds: byte())
    }

    mutating func maybe<T>(_ make: (inout Entropy) -> T) -> T? { flag() ? make(&self) : nil }
}
