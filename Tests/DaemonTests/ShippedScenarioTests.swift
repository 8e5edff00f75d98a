import BlueZ
import CuffSimulation
import DBus
import Daemon
import ScenarioReplay
import Foundation
import GATTHealth
import Gateway
import HealthStore
import Logging
import ReadingColumns
import ReadingQueries
import Testing

/// Every scenario in scenarios/ states what the store must hold afterwards (`expect`); replayed through the
/// Gateway into a HealthStore, each must end with exactly those readings, each once, and that many failed
/// measurements. The same expectations are checked over cuff-sim and over the real bluetoothd in the VM.
@Suite("Shipped scenarios, replayed")
struct ShippedScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scenarios")

    static let names: [String] = (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    @Test func thereAreScenariosToCheck() {
        #expect(Self.names.count >= 9)
    }

    @Test(arguments: names)
    func replayLeavesExactlyTheExpectedReadings(_ name: String) async throws {
        let scenario = try Scenario.parse(Data(contentsOf: Self.folder.appendingPathComponent(name)))
        let expectation = try #require(scenario.expect, "\(name) has no expect block")
        let store = try HealthStore.inMemory()
        let events = await ScenarioReplay(scenario: scenario).run(into: HealthStoreReadingStore(store: store), logger: Logger(label: "test"))

        let stored = try StoreReadingPages(store: store).readings(["after": DBusVariant(""), "limit": DBusVariant(UInt32(10_000))])
        let (missing, unexpected) = expectation.unmatched(try stored.map(Self.observed))
        #expect(missing.isEmpty && unexpected.isEmpty, "store lacks \(missing), holds unexpected \(unexpected)")
        let failed = events.filter { if case .measurementFailed = $0 { true } else { false } }.count
        #expect(failed == expectation.failedMeasurements)
        // BPS 1.1 records arrive as a RACP download brings them: each stored under its sequence number (none from a
        // model cuffd never asks for them).
        let asked = scenario.cuffs.filter { CuffCatalog.asksForRecords(CuffAdvertisement(name: $0.name)) }
        let records = asked.reduce(0) { $0 + ($1.records?.count ?? 0) }
        #expect(stored.filter { $0.syncIdentifier.contains(":seq") }.count == records)
    }

    static func observed(_ stored: ReadingRecord) throws -> ExpectedReading {
        ExpectedReading(
            stored: try #require(stored.device["address"].flatMap(BluetoothAddress.init)), systolic: stored.systolic, diastolic: stored.diastolic, pulseRate: stored.pulseRate,
            userID: stored.userID, deviceTime: stored.deviceTime, status: stored.status.map(BloodPressureMeasurementStatus.init(rawValue:)))
    }
}
