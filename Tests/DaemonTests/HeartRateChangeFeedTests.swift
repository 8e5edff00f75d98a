import BlueZ
import DBus
import Foundation
import GATTHealth
import Gateway
import HealthStore
import ReadingColumns
import Testing
@testable import Daemon

@Suite("HeartRateChangeColumns: heart-rate sensors' samples as a change feed on the bus")
struct HeartRateChangeFeedTests {
    static let strap = DeviceIdentity(address: BluetoothAddress("E8:3C:A1:07:6D:21")!, model: "SIM-HR", serial: "HR1", firmware: "2.0")

    static func sample(_ second: Int, contact: HeartRateMeasurement.SensorContact = .detected, rr: [UInt16] = []) -> HeartRateSample {
        HeartRateSample(
            device: strap, person: "alice", beatsPerMinute: UInt16(60 + second), sensorContact: contact, energyExpended: second == 0 ? 7 : nil,
            rrIntervals: rr, receivedAt: Date(timeIntervalSince1970: 1_790_000_000 + Double(second)))
    }

    static func page(_ store: HealthStore, _ entries: [String: DBusValue]) throws -> (records: [HeartRateRecord], fields: [String: DBusVariant]) {
        let fields = try ChangeRequest(entries.mapValues { DBusVariant($0) }, maximumLimit: ReadingColumns.maximumRows)
            .heartRateChanges(in: store, as: .daemon())
        let columns = try #require(try fields["columns"]?.value.decode(DBusProperties.self))
        return (try HeartRateColumns.records(columns), fields)
    }

    @Test("Sensors' samples come back as stored, a reading's pulse does not; pages follow the anchor; a deletion names the sample")
    func samplesAnchorsDeletions() async throws {
        let store = try HealthStore.inMemory()
        let samples = [Self.sample(0, rr: [991, 1002]), Self.sample(1, contact: .notDetected), Self.sample(2, contact: .notSupported, rr: [1100])]
        _ = try store.save(samples.map(HealthStoreReadingStore.sample), as: .daemon())
        // A blood-pressure reading: its pulse is a heartRate sample too, and stays with its reading.
        _ = try store.saveBloodPressure(
            BloodPressureReading(systolic: 120, diastolic: 80, pulse: 70, receivedAt: Date(timeIntervalSince1970: 1_790_000_100),
                                 device: HealthDevice(identity: "C4F312"), syncIdentifier: "r1"), as: .daemon())

        var (records, fields) = try Self.page(store, ["limit": .uint32(2)])
        #expect(records.map(\.beatsPerMinute) == [60, 61])
        #expect(fields["more"] == DBusVariant(true))
        #expect(records[0].rrIntervals == [991, 1002] && records[0].energyExpended == 7 && records[0].sensorContact == "detected")
        #expect(records[1].sensorContact == "notDetected" && records[1].rrIntervals.isEmpty && records[1].energyExpended == nil)
        #expect(records[0].device["address"] == "E8:3C:A1:07:6D:21" && records[0].device["firmware"] == "2.0" && records[0].person == "alice")
        #expect(records.map(\.syncIdentifier) == samples.prefix(2).map(\.syncIdentifier))
        #expect(records.allSatisfy { $0.syncVersion == 1 && $0.time == 1_790_000_000 + ($0.beatsPerMinute - 60) })
        let anchor = try #require(try fields["anchor"]?.value.decode(UInt64.self))
        (records, fields) = try Self.page(store, ["anchor": .uint64(anchor)])
        #expect(records.map(\.sensorContact) == ["notSupported"], "the third sample, and not the reading's pulse")
        #expect(records.first?.rrIntervals == [1100])
        #expect(fields["more"] == DBusVariant(false))
        let end = try #require(try fields["anchor"]?.value.decode(UInt64.self))

        let uuid = try #require(try store.samples(SampleQuery(type: .heartRate, limit: 1), as: .daemon()).first?.uuid)
        _ = try store.delete([uuid], as: .daemon())
        (records, fields) = try Self.page(store, ["anchor": .uint64(end)])
        #expect(records.isEmpty)
        #expect(fields["deleted"]?.value == .array(.structure([.string, .int64]), [.structure([.string(samples[0].syncIdentifier), .int64(1)])]))
    }

    @Test("A reader without a grant follows the feed and sees no sample; with a heartRate grant, every one")
    func grants() async throws {
        let store = try HealthStore.inMemory()
        _ = try store.save([Self.sample(0), Self.sample(1)].map(HealthStoreReadingStore.sample), as: .daemon())
        let reader = HealthClient.user(uid: 1000)
        var fields = try ChangeRequest([:]).heartRateChanges(in: store, as: reader)
        #expect(try HeartRateColumns.records(#require(try fields["columns"]?.value.decode(DBusProperties.self))).isEmpty)
        #expect(try fields["anchor"]?.value.decode(UInt64.self) ?? 0 > 0, "the anchor moves on")
        try store.setAuthorization(AuthorizationGrant(uid: 1000, type: .heartRate, canShare: false, canRead: true), by: .user(uid: 0))
        fields = try ChangeRequest([:]).heartRateChanges(in: store, as: reader)
        #expect(try HeartRateColumns.records(#require(try fields["columns"]?.value.decode(DBusProperties.self))).count == 2)
    }

    @Test("Columns whose RR counts do not add up, or with a contact code out of range: refused")
    func malformedColumns() throws {
        var columns = HeartRateColumns.properties([HeartRateRecord(beatsPerMinute: 60, time: 1, sensorContact: "detected", rrIntervals: [900], syncIdentifier: "a")])
        #expect(try HeartRateColumns.records(columns).first?.rrIntervals == [900])
        var uneven = columns
        uneven["rrIntervalCount"] = DBusVariant(.int64s([2]))
        #expect(throws: ReadingColumnsError.self) { try HeartRateColumns.records(uneven) }
        columns["sensorContact"] = DBusVariant(.int64s([3]))
        #expect(throws: ReadingColumnsError.self) { try HeartRateColumns.records(columns) }
    }
}
