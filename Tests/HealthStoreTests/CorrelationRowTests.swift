import Foundation
import Testing
@testable import HealthStore

/// Flat reads (``CorrelationColumns``) hold what object reads hold: the same correlations, values, metadata and
/// devices, under the same visibility rules, and the same pages of the change feed.
@Suite struct CorrelationRowTests {
    static let columns = CorrelationColumns(
        values: [.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean, .heartRate],
        metadata: [.deviceTimestamp, .deviceUserID, .personIdentifier, .measurementStatus, .bodyPosition])

    /// Readings that differ in every field a flat read returns: a kPa cuff, no mean or pulse, no device time, another
    /// person and device, status bits.
    static func store() throws -> HealthStore {
        let store = try Fixture.store()
        var readings = (1...4).map { Fixture.reading($0) }
        readings.append(Fixture.reading(5, systolic: 16, unit: .kilopascal, pulse: nil))
        var bare = BloodPressureReading(
            systolic: 131, diastolic: 85, receivedAt: Fixture.t0.addingTimeInterval(-60), device: HealthDevice(identity: "E83CA1"),
            syncIdentifier: "E83CA1-bare")
        bare.measurementStatus = 0x0005
        readings.append(bare)
        var timed = Fixture.reading(7)
        timed.deviceTimestamp = Fixture.t0.addingTimeInterval(7 * 3600 - 30)
        timed.personIdentifier = "patient-0002"
        readings.append(timed)
        _ = try store.saveBloodPressure(readings, as: Fixture.daemon)
        return store
    }

    /// What an object read gives for each flat column: the first member or linked sample of each type (in its
    /// canonical unit), the correlation's metadata values.
    static func expected(_ correlation: Correlation) throws -> CorrelationRow {
        let samples = correlation.objects + correlation.linkedSamples
        return CorrelationRow(
            uuid: correlation.uuid, startDate: correlation.startDate,
            values: try columns.values.map { type in try samples.first { $0.type == type }.map { try $0.quantity.doubleValue(for: type.canonicalUnit) } },
            metadata: columns.metadata.map { correlation.metadata[$0] },
            syncIdentifier: correlation.metadata.syncIdentifier, syncVersion: correlation.metadata.syncVersion, device: correlation.device)
    }

    @Test("Rows equal the correlations they stand for, in the query's order and limit")
    func rowsEqualObjects() throws {
        let store = try Self.store()
        for sort in [SampleSort.startDateAscending, .startDateDescending] {
            for limit in [nil, 3] {
                let query = CorrelationQuery(type: .bloodPressure, sort: sort, limit: limit)
                let objects = try store.correlations(query, as: Fixture.daemon)
                #expect(objects.count == (limit ?? 7))
                #expect(try store.correlationRows(query, columns: Self.columns, as: Fixture.daemon) == objects.map(Self.expected))
            }
        }
        // The kPa cuff's systolic, in mmHg as stored; the bare reading's absent values nil.
        let rows = try store.correlationRows(CorrelationQuery(type: .bloodPressure), columns: Self.columns, as: Fixture.daemon)
        #expect(rows.contains { abs(($0.values[0] ?? 0) - 120.0012) < 0.01 && $0.values[3] == nil })
        #expect(rows.contains { $0.syncIdentifier == "E83CA1-bare" && $0.values[2] == nil && $0.metadata[0] == nil && $0.metadata[3] == .integer(5) })
    }

    @Test("A reader who may not read the pulse gets no pulse; one who may not read pressures gets nothing")
    func visibility() throws {
        let store = try Self.store()
        for type in [QuantityType.bloodPressureSystolic, .bloodPressureDiastolic, .bloodPressureMean] {
            try store.setAuthorization(AuthorizationGrant(uid: 1000, type: type, canShare: false, canRead: true), by: Fixture.root)
        }
        try store.setAuthorization(AuthorizationGrant(uid: 1001, type: .heartRate, canShare: false, canRead: true), by: Fixture.root)
        for client in [Fixture.alice, Fixture.bob] {
            let query = CorrelationQuery(type: .bloodPressure)
            let rows = try store.correlationRows(query, columns: Self.columns, as: client)
            #expect(rows == (try store.correlations(query, as: client).map(Self.expected)))
            // The feed's page reads its values by another path (one scan of the members): the same rows, in commit order.
            let page = try store.correlationRowChanges(of: .bloodPressure, columns: Self.columns, since: nil, limit: 100, as: client)
            #expect(Set(page.added) == Set(rows) && page.added.count == rows.count)
            if client == Fixture.alice {
                #expect(rows.count == 7 && rows.allSatisfy { $0.values[0] != nil && $0.values[3] == nil })
            } else {
                #expect(rows.isEmpty)
            }
        }
    }

    @Test("A page longer than a run of member reads has every row's values, each its own reading's")
    func pageOfManyRuns() throws {
        let store = try Fixture.store()
        let count = 2 * SQLiteEngine.FlatSelect.memberRun + 3
        _ = try store.saveBloodPressure((1...count).map { Fixture.reading($0, systolic: 100 + Double($0 % 90), pulse: $0 % 5 == 0 ? nil : 60) }, as: Fixture.daemon)
        let page = try store.correlationRowChanges(of: .bloodPressure, columns: Self.columns, since: nil, limit: 10_000, as: Fixture.daemon)
        #expect(page.added.count == count && !page.hasMore)
        for row in page.added {
            let n = try #require(row.syncIdentifier?.split(separator: "-").last.flatMap { Int($0) })
            #expect(row.values == [100 + Double(n % 90), 80, 93, n % 5 == 0 ? nil : 60], "reading \(n)")
        }
    }

    @Test("The feed read flat pages as the object feed does: the same rows, deletions, anchors and more")
    func feedEqualsObjectFeed() throws {
        let store = try Self.store()
        _ = try store.saveBloodPressure(Fixture.reading(2, version: 1, systolic: 150), as: Fixture.daemon)
        let deleted = try #require(try store.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).first { $0.metadata.syncIdentifier == "E83CA1-bare" })
        _ = try store.delete([deleted.uuid], as: Fixture.daemon)
        var anchor: QueryAnchor?
        var pages = 0
        while true {
            let objects = try store.changes(of: [.correlation(.bloodPressure)], since: anchor, limit: 3, as: Fixture.daemon)
            let flat = try store.correlationRowChanges(of: .bloodPressure, columns: Self.columns, since: anchor, limit: 3, as: Fixture.daemon)
            let correlations = objects.added.compactMap { object -> Correlation? in if case .correlation(let c) = object { c } else { nil } }
            #expect(flat.added == (try correlations.map(Self.expected)))
            #expect(flat.deleted == objects.deleted && flat.newAnchor == objects.newAnchor && flat.hasMore == objects.hasMore)
            pages += 1
            anchor = flat.newAnchor
            if !flat.hasMore { break }
        }
        #expect(pages >= 3)
    }
}
