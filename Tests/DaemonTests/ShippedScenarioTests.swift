import CuffSimulation
import DBus
import Daemon
import ScenarioReplay
import Foundation
import Gateway
import HealthStore
import Logging
import ReadingColumns
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
        #expect(stored.map(ExpectedReading.Comparable.init).sorted() == expectation.readings.map(ExpectedReading.Comparable.init).sorted())
        let failed = events.filter { if case .measurementFailed = $0 { true } else { false } }.count
        #expect(failed == expectation.failedMeasurements)
        // BPS 1.1 records arrive as a RACP download brings them: each stored under its sequence number.
        let records = scenario.cuffs.reduce(0) { $0 + ($1.records?.count ?? 0) }
        #expect(stored.filter { $0.syncIdentifier.contains(":seq") }.count == records)
    }
}

extension ExpectedReading {
    /// The fields a scenario's expectation names, in a sortable form, from either side.
    struct Comparable: Swift.Comparable, CustomStringConvertible {
        let address: String, systolic: Double, diastolic: Double, pulseRate: Double, userID: Int, deviceTime: String

        init(_ expected: ExpectedReading) {
            address = expected.address.description
            systolic = expected.systolic
            diastolic = expected.diastolic
            pulseRate = expected.pulseRate ?? -1
            userID = expected.userID.map(Int.init) ?? -1
            deviceTime = expected.deviceTime ?? "unknown"
        }

        init(_ stored: ReadingRecord) {
            address = stored.device["address"] ?? ""
            systolic = stored.systolic
            diastolic = stored.diastolic
            pulseRate = stored.pulseRate ?? -1
            userID = stored.userID.map(Int.init) ?? -1
            deviceTime = stored.deviceTime ?? "unknown"
        }

        static func < (a: Self, b: Self) -> Bool { a.description < b.description }
        var description: String { "\(address) \(systolic)/\(diastolic) p\(pulseRate) u\(userID) @\(deviceTime)" }
    }
}
