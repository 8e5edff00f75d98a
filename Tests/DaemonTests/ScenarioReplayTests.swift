import CuffSimulation
import Daemon
import ScenarioReplay
import Foundation
import Gateway
import HealthStore
import Logging
import Testing

@Suite("Scenario replay into HealthStore")
struct ScenarioReplayTests {
    static let scenario = try! Scenario.parse(Data(contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios/one-cuff.json")))

    func outcomes(_ events: [SessionEvent]) -> [CommitOutcome] {
        events.compactMap { if case let .readingStored(_, outcome) = $0 { outcome } else { nil } }
    }

    @Test func readingsAreStoredOnceAsCorrelationsWithTheirDevice() async throws {
        let store = try HealthStore.inMemory()
        let readings = HealthStoreReadingStore(store: store)
        let logger = Logger(label: "test")
        let first = await ScenarioReplay(scenario: Self.scenario).run(into: readings, logger: logger)
        #expect(outcomes(first) == [.stored, .alreadyStored, .stored])
        let again = await ScenarioReplay(scenario: Self.scenario).run(into: readings, logger: logger)
        #expect(outcomes(again) == [.alreadyStored, .alreadyStored, .alreadyStored])

        let correlations = try store.correlations(CorrelationQuery(type: .bloodPressure), as: .daemon())
        #expect(correlations.count == 2)
        let latest = try #require(correlations.last)
        #expect(latest.device?.model == "SIM-1")
        #expect(latest.device?.localIdentifier == "C4:F3:12:53:F2:C9")
        let values = latest.objects.map(\.quantity.value).sorted()
        #expect(values == [80, 93, 122])
        #expect(latest.linkedSamples.map(\.quantity.value) == [72])
    }

    @Test func aKilopascalReadingKeepsItsUnitForTheStoreToConvert() async throws {
        let scenario = try Scenario.parse(Data("""
            {"adapter": {"address": "00:1A:7D:DA:71:13"}, "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "K",
             "services": ["1810"], "storedRecords": ["15BDF00B009FF03C001200"]}]}
            """.utf8))
        let store = try HealthStore.inMemory()
        let events = await ScenarioReplay(scenario: scenario).run(into: HealthStoreReadingStore(store: store), logger: Logger(label: "test"))
        #expect(outcomes(events) == [.stored])
        let correlation = try #require(try store.correlations(CorrelationQuery(type: .bloodPressure), as: .daemon()).first)
        // 18.9 kPa = 141.76 mmHg (1 mmHg = 133.322387415 Pa).
        let systolic = try #require(correlation.objects.map(\.quantity.value).max())
        #expect(abs(systolic - 18_900 / 133.322387415) < 1e-9)
    }

}
