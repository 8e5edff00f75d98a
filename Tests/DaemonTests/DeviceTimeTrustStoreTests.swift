import BlueZ
@testable import Daemon
import Foundation
import Gateway
import GATTHealth
import HealthStore
import Logging
import Testing

/// A cuff time far ahead of the gateway's clock, from the Gateway's reading to the store and the journal
/// (docs/gateway.md, "Time").
@Suite("A cuff time far ahead: filed under its receipt, kept as reported, warned of")
struct DeviceTimeTrustStoreTests {
    static let cuff = BluetoothAddress("E8:2A:44:10:3C:A1")!
    static let received = Date(timeIntervalSince1970: 1_795_766_400)  // 2026-11-27T08:00:00Z
    /// The record: 140/90 mmHg, MAP 105, pulse 72, user 1, dated 2099-01-01T08:00:00.
    static let record2099: [UInt8] = [0x1E, 0x8C, 0x00, 0x5A, 0x00, 0x69, 0x00, 0x33, 0x08, 0x01, 0x01, 0x08, 0x00, 0x00, 0x48, 0x00, 0x01, 0x00, 0x00]

    /// What the Gateway makes of `bytes` received at `receivedAt` from a cuff whose clock shows UTC.
    static func reading(_ bytes: [UInt8], receivedAt: Date) throws -> Reading {
        let interpretation = MeasurementInterpretation(
            try BloodPressureMeasurement(decoding: bytes), payload: bytes, device: DeviceIdentity(address: cuff, serial: "0031"),
            users: UserDirectory(), receivedAt: receivedAt, clockOffset: .zero)
        guard case .reading(let reading) = interpretation else { throw NotAReading(description: "\(interpretation)") }
        return reading
    }

    struct NotAReading: Error, CustomStringConvertible { let description: String }

    /// A reading of 118/76 that the cuff dates `time` (UTC).
    static func normal(at time: Date, receivedAt: Date) throws -> Reading {
        let stamp = DateTime(utc: time)
        let bytes: [UInt8] = [0x1E, 0x76, 0x00, 0x4C, 0x00, 0x5A, 0x00] + [UInt8(stamp.year & 0xFF), UInt8(stamp.year >> 8), stamp.month, stamp.day, stamp.hours, stamp.minutes, stamp.seconds]
            + [0x42, 0x00, 0x01, 0x00, 0x00]
        return try reading(bytes, receivedAt: receivedAt)
    }

    @Test("The 2099 record is dated by its receipt, its device time kept; a newer reading received later is the most recent")
    func newerReadingIsMostRecent() async throws {
        let store = try HealthStore.inMemory()
        let gatewayStore = HealthStoreReadingStore(store: store)
        let ahead = try Self.reading(Self.record2099, receivedAt: Self.received)
        #expect(!ahead.isDeviceTimeBelieved)
        #expect(try await gatewayStore.commit(ahead) == .stored)
        let later = Self.received.addingTimeInterval(3600)
        #expect(try await gatewayStore.commit(try Self.normal(at: later, receivedAt: later.addingTimeInterval(60))) == .stored)

        let systolic = try store.statistics(of: .bloodPressureSystolic, predicate: .all, options: .mostRecent, as: .daemon())
        #expect(try systolic.all.mostRecent?.doubleValue(for: .millimeterOfMercury) == 118)
        #expect(systolic.all.mostRecentDate == later)
        let stored = try store.correlations(CorrelationQuery(type: .bloodPressure), as: .daemon())
        let filed = try #require(stored.first { $0.objects.contains { (try? $0.quantity.doubleValue(for: .millimeterOfMercury)) == 140 } })
        #expect(filed.startDate == Self.received, "filed under the time received")
        #expect(filed.metadata.deviceTimestamp == Date(timeIntervalSince1970: 4_070_937_600), "the device time as the cuff reported it")
        // Sent again (a cuff re-sends its memory on every link): recognized, as its sync identifier keeps the device time.
        #expect(try await gatewayStore.commit(try Self.reading(Self.record2099, receivedAt: later)) == .alreadyStored)
    }

    @Test("A time ahead by a day is believed, by a day and a second not")
    func aDayAhead() throws {
        let day = Self.received.addingTimeInterval(86_400)
        #expect(try Self.normal(at: day, receivedAt: Self.received).isDeviceTimeBelieved)
        #expect(try !Self.normal(at: day.addingTimeInterval(1), receivedAt: Self.received).isDeviceTimeBelieved)
        #expect(try Self.normal(at: Date(timeIntervalSince1970: 0), receivedAt: Self.received).isDeviceTimeBelieved, "however far in the past")
        let record = HealthStoreReadingStore.record(try Self.normal(at: day.addingTimeInterval(1), receivedAt: Self.received))
        #expect(record.effectiveDate == Self.received)
        #expect(HealthStoreReadingStore.record(try Self.normal(at: day, receivedAt: Self.received)).effectiveDate == day)
    }

    @Test("The journal warns once, when the reading is stored, naming the cuff, its time and how far ahead it lay")
    func journalWarning() throws {
        let ahead = try Self.reading(Self.record2099, receivedAt: Self.received)
        let captured = CapturedLog()
        let log = GatewayLog(detail: .readings, logger: Logger(label: "test") { _ in captured })
        log.log(.session(Self.cuff, .readingStored(ahead, .stored)))
        log.log(.session(Self.cuff, .readingStored(ahead, .alreadyStored)))
        log.log(.session(Self.cuff, .readingStored(try Self.normal(at: Self.received, receivedAt: Self.received), .stored)))
        let warnings = captured.entries.filter { $0.level == .warning }
        let warning = try #require(warnings.first)
        #expect(warnings.count == 1)
        #expect(warning.message == "Cuff E8:2A:44:10:3C:A1: its time stamp 2099-01-01T08:00:00 lies 26333 days 0 h 0 min ahead of the gateway's clock, "
                + "more than the 24 h cuffd believes: the reading is filed under the time cuffd received it")
        #expect(warning.metadata["BP_DEVICE"] == "E8:2A:44:10:3C:A1")
        #expect(warning.metadata["BP_DEVICE_TIME"] == "2099-01-01T08:00:00")
        #expect(warning.metadata["BP_DEVICE_TIME_AHEAD"] == "\(4_070_937_600 - 1_795_766_400)")
        #expect(warning.metadata["BP_SYNC_IDENTIFIER"] == "\(ahead.syncIdentifier)")
    }
}
