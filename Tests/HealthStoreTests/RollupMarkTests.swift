import Foundation
import Testing
@testable import HealthStore

/// The rollup after many readings sharing slots and days are deleted, excluded and included again in one call each
/// (migration v12: the triggers mark slots, the end of the transaction recomputes each marked slot and day once).
@Suite struct RollupMarkTests {
    /// Reading `n` of four 15-minute slots of one day: three a slot, the first two of each slot at the same instant
    /// (the latest value's tie goes to the later row), values that make each slot's lowest, highest and latest change
    /// as readings go.
    static func reading(_ n: Int) -> BloodPressureReading {
        let slot = n / 3, inSlot = n % 3
        let at = Fixture.t0.addingTimeInterval(Double(slot) * 900 + (inSlot == 2 ? 600 : 60))
        return BloodPressureReading(
            systolic: Double(100 + (n * 37) % 80), diastolic: Double(60 + (n * 11) % 30), mean: Double(80 + n % 7), pulse: Double(50 + (n * 13) % 40),
            receivedAt: at, timeZoneIdentifier: "Europe/Berlin", device: Fixture.cuff, deviceUserID: 1, personIdentifier: "patient-0001",
            measurementStatus: 0, bodyPosition: .sittingDown, measurementLocation: .leftUpperArm, syncIdentifier: "C4F312FFFE53F2C9-1-\(n)")
    }

    static func ids(_ ns: some Sequence<Int>) -> [String] { ns.map { "C4F312FFFE53F2C9-1-\($0)" } }

    /// The systolic count of every reading and of those not excluded, both summed from the rollup.
    static func systolic(_ store: HealthStore) throws -> [Int] {
        var counted = SamplePredicate()
        counted.excludeExcluded = true
        return try [SamplePredicate(), counted].map {
            try store.statistics(of: .bloodPressureSystolic, predicate: $0, options: .discrete, as: Fixture.daemon).all.sampleCount
        }
    }

    @Test func batchesOfDeletionsExclusionsAndInclusionsSharingSlotsKeepTheRollupExact() throws {
        let store = try Fixture.store()
        _ = try store.saveBloodPressure((0 ..< 12).map(Self.reading), as: Fixture.daemon)
        #expect(try Fixture.rollupMismatches(store) == Fixture.RollupMismatches())
        #expect(try Self.systolic(store) == [12, 12])

        // Exclude two of each slot, one call: each sample leaves its slot's part and enters the excluded part.
        _ = try store.reviseCorrelations(of: .bloodPressure, syncIdentifiers: Self.ids([0, 1, 3, 5, 6, 7, 9, 11]), changes: [.exclusionReason: .string("guest")], as: Fixture.daemon)
        #expect(try Fixture.rollupMismatches(store) == Fixture.RollupMismatches())
        #expect(try Self.systolic(store) == [12, 4])

        // Delete excluded and counted readings of the same slots together, and a slot's every reading.
        #expect(try store.deleteCorrelations(of: .bloodPressure, syncIdentifiers: Self.ids([1, 2, 5, 9, 10, 11]), as: Fixture.daemon) == 30)
        #expect(try Fixture.rollupMismatches(store) == Fixture.RollupMismatches())
        #expect(try Self.systolic(store) == [6, 2])

        // Include some again and move one to another person (a part and an indexed key change), one call.
        _ = try store.reviseCorrelations(of: .bloodPressure, syncIdentifiers: Self.ids([0, 3, 7]), changes: [.exclusionReason: nil, .personIdentifier: .string("bob")], as: Fixture.daemon)
        #expect(try Fixture.rollupMismatches(store) == Fixture.RollupMismatches())
        #expect(try Self.systolic(store) == [6, 5])

        // Nothing is left marked between transactions.
        let engine = try #require(store.engine as? SQLiteEngine)
        #expect(try engine.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sample_rollup_mark") } == 0)
    }
}
