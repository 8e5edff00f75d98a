import Foundation
import Testing
@testable import HealthStore

/// Sample and correlation queries (docs/reference/HEALTH-STORE.md §5; `HKSampleQuery`, `HKCorrelationQuery`).
@Suite struct QueryTests {
    let store: HealthStore
    let samples: [QuantitySample]
    let other = HealthDevice(identity: "AABBCCDDEEFF0011", model: "Other")

    init() throws {
        store = try Fixture.store()
        var list: [QuantitySample] = []
        for i in 0..<10 {
            var metadata = HealthMetadata()
            metadata.deviceUserID = Int64(i % 2)
            let start = Fixture.t0.addingTimeInterval(Double(i) * 60)
            list.append(QuantitySample(type: .heartRate, quantity: HealthQuantity(unit: .countPerMinute, doubleValue: Double(60 + i)), start: start, end: start.addingTimeInterval(30), device: i < 5 ? Fixture.cuff : other, metadata: metadata))
        }
        samples = list
        _ = try store.save(list, as: Fixture.daemon)
        _ = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
    }

    func values(_ predicate: SamplePredicate, sort: SampleSort = .startDateAscending, limit: Int? = nil) throws -> [Double] {
        try store.samples(SampleQuery(type: .heartRate, predicate: predicate, sort: sort, limit: limit), as: Fixture.daemon).map(\.quantity.value)
    }

    @Test func dateRangeOverlapAndStrictOptions() throws {
        let start = Fixture.t0.addingTimeInterval(2 * 60 + 15), end = Fixture.t0.addingTimeInterval(4 * 60)
        let excl = SamplePredicate(excludeCorrelated: true)
        var p = excl
        p.dateRange = DateRange(start: start, end: end)
        #expect(try values(p) == [62, 63])  // 62 overlaps (ends at 2:30), 64 starts at the exclusive end
        p.dateRange = DateRange(start: start, end: end, strictStartDate: true)
        #expect(try values(p) == [63])
        p.dateRange = DateRange(start: Fixture.t0, end: end, strictEndDate: true)
        #expect(try values(p) == [60, 61, 62, 63])
    }

    @Test func sortAndLimit() throws {
        let p = SamplePredicate(excludeCorrelated: true)
        #expect(try values(p, sort: .startDateDescending, limit: 3) == [69, 68, 67])
        #expect(try values(p, sort: .endDateAscending, limit: 2) == [60, 61])
    }

    @Test func byDeviceSourceMetadataAndUUID() throws {
        #expect(try values(SamplePredicate(deviceIdentity: other.identity)) == [65, 66, 67, 68, 69])
        #expect(try values(SamplePredicate(metadata: ["DeviceUserId": [.integer(1)]], excludeCorrelated: true)) == [61, 63, 65, 67, 69])
        #expect(try values(SamplePredicate(uuids: [samples[3].uuid])) == [63])
        #expect(try values(SamplePredicate(sourceBundleIdentifiers: ["uid.1000"])) == [])
        #expect(try values(SamplePredicate(sourceBundleIdentifiers: ["org.cuffd.gateway"], excludeCorrelated: true)).count == 10)
    }

    @Test func excludeCorrelatedDropsTheLinkedPulse() throws {
        #expect(try values(SamplePredicate()).count == 11)
        #expect(try values(SamplePredicate(excludeCorrelated: true)).count == 10)
    }

    @Test func correlationQueryWithPredicateAndMembers() throws {
        _ = try store.saveBloodPressure(Fixture.reading(2), as: Fixture.daemon)
        let last = try store.correlations(CorrelationQuery(type: .bloodPressure, sort: .startDateDescending, limit: 1), as: Fixture.daemon)
        #expect(last.count == 1 && last[0].metadata.syncIdentifier == "C4F312FFFE53F2C9-1-2")
        #expect(last[0].objects.count == 3)
        let none = try store.correlations(CorrelationQuery(type: .bloodPressure, predicate: SamplePredicate(deviceIdentity: other.identity)), as: Fixture.daemon)
        #expect(none.isEmpty)
    }
}

/// Sync identifier and version are metadata to callers but columns in SQLite: predicates on them work.
@Suite struct SyncMetadataPredicateTests {
    @Test func predicateOnSyncIdentifierAndVersion() throws {
        let store = try Fixture.store()
        _ = try store.save([Fixture.heartRate(60, at: Fixture.t0, sync: "a", version: 1), Fixture.heartRate(61, at: Fixture.t0, sync: "b", version: 2)], as: Fixture.daemon)
        let byID = try store.samples(SampleQuery(type: .heartRate, predicate: SamplePredicate(metadata: ["SyncIdentifier": [.string("b")]])), as: Fixture.daemon)
        #expect(byID.map(\.quantity.value) == [61])
        #expect(byID.first?.metadata.syncVersion == 2)
        let byVersion = try store.samples(SampleQuery(type: .heartRate, predicate: SamplePredicate(metadata: ["SyncVersion": [.integer(1)]])), as: Fixture.daemon)
        #expect(byVersion.map(\.quantity.value) == [60])
    }
}
