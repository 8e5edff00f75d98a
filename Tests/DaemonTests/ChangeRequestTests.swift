import DBus
import Foundation
import HealthStore
import ReadingColumns
import ReadingQueries
import Testing
@testable import Daemon

@Suite("Changes: the change feed on the bus")
struct ChangeRequestTests {
    static func request(_ entries: [String: DBusValue]) throws -> ChangeRequest {
        try ChangeRequest(entries.mapValues { DBusVariant($0) })
    }

    static func store(readings count: Int) async throws -> HealthStore {
        let store = try HealthStore.inMemory()
        let readings = (1...count).map { n in
            BloodPressureReading(
                systolic: 120, diastolic: 80, pulse: 70, receivedAt: Date(timeIntervalSince1970: 1_773_000_000 + Double(n) * 60),
                device: HealthDevice(identity: "C4F312", localIdentifier: "C4:F3:12:53:F2:C9"), syncIdentifier: "r\(n)")
        }
        _ = try store.saveBloodPressure(readings, as: .daemon())
        return store
    }

    @Test("Bad requests are InvalidArguments")
    func badRequests() {
        for entries: [String: DBusValue] in [["limit": .uint32(0)], ["limit": .uint32(1001)], ["anchor": .uint64(.max)], ["anchor": .int32(1)], ["from": .string("now")]] {
            #expect(throws: ControlError.self, "\(entries)") { try Self.request(entries) }
        }
    }

    @Test("Pages follow the anchor to the end; latest answers only the anchor; a revision comes again with its old version deleted")
    func pagesAndRevisions() async throws {
        let store = try await Self.store(readings: 3)
        var reply = try Self.request(["limit": .uint32(2)]).changes(in: store, as: .daemon())
        #expect(try reply["readings"]?.value.decode([DBusProperties].self).count == 2)
        #expect(reply["more"] == DBusVariant(true))
        let anchor = try #require(try reply["anchor"]?.value.decode(UInt64.self))
        reply = try Self.request(["anchor": .uint64(anchor), "limit": .uint32(2)]).changes(in: store, as: .daemon())
        #expect(try reply["readings"]?.value.decode([DBusProperties].self).count == 1)
        #expect(reply["more"] == DBusVariant(false))
        let end = try #require(try reply["anchor"]?.value.decode(UInt64.self))
        let latest = try Self.request(["latest": .boolean(true)]).changes(in: store, as: .daemon())
        #expect(try latest["anchor"]?.value.decode(UInt64.self) == end)
        #expect(try latest["readings"]?.value.decode([DBusProperties].self).isEmpty == true)

        let revised = BloodPressureReading(
            systolic: 121, diastolic: 80, receivedAt: Date(timeIntervalSince1970: 1_773_000_060),
            device: HealthDevice(identity: "C4F312", localIdentifier: "C4:F3:12:53:F2:C9"), syncIdentifier: "r1", syncVersion: 1)
        _ = try store.saveBloodPressure(revised, as: .daemon())
        reply = try Self.request(["anchor": .uint64(end)]).changes(in: store, as: .daemon())
        let readings = try #require(try reply["readings"]?.value.decode([DBusProperties].self))
        #expect(readings.count == 1)
        #expect(try readings.first?.property("syncVersion", as: Int64.self) == 1)
        #expect(reply["deleted"]?.value == .array(.structure([.string, .int64]), [.structure([.string("r1"), .int64(0)])]))
    }

    @Test("ChangeColumns: the readings of Changes as columns, pages of up to 10 000")
    func columns() async throws {
        let store = try await Self.store(readings: 3)
        let rows = try Self.request(["limit": .uint32(2)]).changes(in: store, as: .daemon())
        let columns = try ChangeRequest(["limit": DBusVariant(UInt32(2))], maximumLimit: ReadingColumns.maximumRows).changes(in: store, as: .daemon(), columns: true)
        #expect(columns["readings"] == nil && columns["anchor"] == rows["anchor"] && columns["more"] == rows["more"])
        let records = try ReadingColumns.records(try #require(try columns["columns"]?.value.decode(DBusProperties.self)))
        #expect(records.map(ReadingDictionary.make) == (try rows["readings"]?.value.decode([DBusProperties].self)))
        #expect(throws: ControlError.self) { try ChangeRequest(["limit": DBusVariant(UInt32(10_001))], maximumLimit: ReadingColumns.maximumRows) }
        #expect(try ChangeRequest(["limit": DBusVariant(UInt32(10_000))], maximumLimit: ReadingColumns.maximumRows).limit == 10_000)
    }

    @Test("A reader without a grant follows the feed and sees nothing")
    func ungrantedReader() async throws {
        let store = try await Self.store(readings: 2)
        let reply = try Self.request([:]).changes(in: store, as: .user(uid: 1000))
        #expect(try reply["readings"]?.value.decode([DBusProperties].self).isEmpty == true)
    }
}
