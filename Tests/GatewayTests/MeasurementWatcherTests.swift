import FoundationEssentials
import GATTHealth
import Testing
@testable import Gateway

/// Which stored reading ends an armed measurement session (`cuffctl start`): the first new one that arrived
/// after the start, except a BPS 1.1 record from the cuff's memory measured before it.
@Suite("MeasurementWatcher: what counts as the measurement")
struct MeasurementWatcherTests {
    static let armedAt = Fixtures.receivedAt
    // UTC wall clocks (BPS 1.1 records carry UTC) three days before and a minute after `armedAt`,
    // 2026-09-21 14:13:20 UTC.
    static let threeDaysBefore = DateTime(year: 2026, month: 9, day: 18, hours: 14, minutes: 13, seconds: 20)
    static let aMinuteAfter = DateTime(year: 2026, month: 9, day: 21, hours: 14, minutes: 14, seconds: 20)

    static func reading(systolic: Int32, deviceTime: DateTime, sequenceNumber: UInt16?) -> Reading {
        Reading(
            device: Fixtures.cuff, userID: nil, person: nil, unit: .millimetresOfMercury,
            systolic: MedFloat16(mantissa: systolic, exponent: 0)!, diastolic: MedFloat16(mantissa: 80, exponent: 0)!,
            meanArterialPressure: nil, pulseRate: nil, status: nil, deviceTime: deviceTime,
            receivedAt: armedAt.addingTimeInterval(5), sequenceNumber: sequenceNumber, payload: [])
    }

    /// Delivers the readings as committed, then ends the session; returns the systolic values it yielded.
    static func measured(_ readings: [Reading]) async -> [Double] {
        let (stream, continuation) = AsyncStream<MeasurementUpdate>.makeStream()
        let watcher = MeasurementWatcher(address: Fixtures.cuff.address, armedAt: armedAt, continuation: continuation)
        for reading in readings {
            watcher.deliver(Fixtures.cuff.address, .readingStored(reading, .stored))
        }
        watcher.end(.timedOut)
        var systolic: [Double] = []
        for await update in stream {
            if case .reading(_, let reading) = update { systolic.append(reading.systolic.doubleValue) }
        }
        return systolic
    }

    @Test func aRecordMeasuredBeforeTheStartIsHistoryAndTheLiveMeasurementEndsIt() async {
        let measured = await Self.measured([
            Self.reading(systolic: 128, deviceTime: Self.threeDaysBefore, sequenceNumber: 7),
            Self.reading(systolic: 117, deviceTime: Self.threeDaysBefore, sequenceNumber: nil),
        ])
        #expect(measured == [117])
    }

    @Test func aRecordMeasuredAfterTheStartIsTheMeasurement() async {
        let measured = await Self.measured([Self.reading(systolic: 121, deviceTime: Self.aMinuteAfter, sequenceNumber: 12)])
        #expect(measured == [121])
    }
}
