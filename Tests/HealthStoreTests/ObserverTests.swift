import Foundation
import Testing
@testable import HealthStore

/// Observer notifications after commit (`HKObserverQuery`: fires on save or delete).
@Suite struct ObserverTests {
    @Test func observersHearCommitsOfTheirTypesOnly() async throws {
        let store = try Fixture.store()
        let stream = store.observe([.quantity(.heartRate)])
        var iterator = stream.makeAsyncIterator()
        _ = try store.save([QuantitySample(type: .bloodPressureMean, quantity: HealthQuantity(unit: .millimeterOfMercury, doubleValue: 90), start: Fixture.t0, end: Fixture.t0)], as: Fixture.daemon)
        let sample = Fixture.heartRate(60, at: Fixture.t0, sync: "s")
        _ = try store.save([sample], as: Fixture.daemon)
        #expect(await iterator.next() == ["heartRate"])
        _ = try store.save([Fixture.heartRate(60, at: Fixture.t0, sync: "s")], as: Fixture.daemon)  // no-op: no signal
        _ = try store.delete([sample.uuid], as: Fixture.daemon)
        #expect(await iterator.next() == ["heartRate"])
    }

    @Test func aFailedSaveSignalsNothing() async throws {
        let store = try Fixture.store()
        let stream = store.observe([.correlation(.bloodPressure)])
        var iterator = stream.makeAsyncIterator()
        #expect(throws: HealthStoreError.self) { try store.saveBloodPressure(Fixture.reading(systolic: .infinity), as: Fixture.daemon) }
        _ = try store.saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
        #expect(await iterator.next() == ["bloodPressure"])
    }
}
