import BlueZ
@testable import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import GATTHealth
import Testing

/// A cuff's clock on Current Time 0x2A2B (docs/reference/GATT-HEALTH.md §10).
@Suite("cuff-sim: the cuff's clock")
struct ClockTests {
    static func scenario(_ clock: String) -> String {
        ScenarioText.oneCuff(services: #"["1810", "180A", "1805"]"#, extra: #""clock": \#(clock)"#)
    }

    static func connected(_ scenario: String) async throws -> (EmulatorHarness, DBusObjectPath) {
        let harness = try await EmulatorHarness(scenario)
        try await harness.discover()
        try await harness.connectAndResolve()
        return (harness, try await harness.characteristicPath("2a2b"))
    }


    @Test func theClockRunsOnFromWhereItWasSet() throws {
        let start = ContinuousClock.now
        var clock = CuffClock(showing: DateTime(year: 2021, month: 12, day: 31, hours: 23, minutes: 59, seconds: 59), at: start)
        let later = clock.currentTime(at: start + .milliseconds(1500))
        #expect(later.dateTime.isoString == "2022-01-01T00:00:00")
        #expect(later.fractions256 == 128)
        #expect(later.dayOfWeek == 6, "2022-01-01 was a Saturday")
        #expect(later.adjustReason == [])

        let written = CurrentTime(dateTime: DateTime(year: 2024, month: 2, day: 29, hours: 12, minutes: 0, seconds: 0), adjustReason: .manualTimeUpdate)
        try clock.set(written.encoded(), at: start + .seconds(2))
        let after = clock.currentTime(at: start + .seconds(62))
        #expect(after.dateTime.isoString == "2024-02-29T12:01:00")
        #expect(after.adjustReason == .manualTimeUpdate)

        #expect(throws: ATTError.invalidAttributeValueLength) { try clock.set(Array(written.encoded().dropLast()), at: start) }
        var impossible = written.encoded()
        impossible[2] = 13  // month
        #expect(throws: ATTError.valueNotAllowed) { try clock.set(impossible, at: start) }
        var weekday = written.encoded()
        weekday[7] = 8
        #expect(throws: ATTError.valueNotAllowed) { try clock.set(weekday, at: start) }
        #expect(clock.currentTime(at: start + .seconds(62)) == after, "a refused write changes nothing")
    }

    @Test("Reads show the scenario's clock running; a valid write sets it and is logged")
    func readAndSet() async throws {
        try await withTeardown { teardown in
            let (harness, path) = try await Self.connected(Self.scenario(#"{"start": "2021-01-01T00:00:00"}"#))
            teardown.add { await harness.stop() }
            #expect(try await harness.property(path, "org.bluez.GattCharacteristic1", "Flags") == ["read", "write", "notify"].dbusValue)
            let first = try CurrentTime(decoding: try await harness.read(path))
            #expect(first.dateTime.year == 2021 && first.dateTime.month == 1 && first.dateTime.day == 1)
            // A measurement window, not a wait: the clock is seen to run only once real time has passed, and a sleep
            // never ends early, so on any machine the second read shows a later second.
            try await Task.sleep(for: .milliseconds(1100))
            let second = try CurrentTime(decoding: try await harness.read(path))
            #expect(try #require(second.dateTime.isoString) > #require(first.dateTime.isoString))
            #expect(harness.events.all.contains { $0.hasSuffix("0x2A2B read: clock \(second.dateTime.isoString!)") })

            let sync = CurrentTime(dateTime: DateTime(year: 2026, month: 11, day: 22, hours: 10, minutes: 30, seconds: 0))
            try await harness.expectClockSet(to: sync.dateTime, writing: sync.encoded(), to: path)
            #expect(harness.events.all.contains { $0.contains("0x2A2B written: \(Hex.bytes(sync.encoded())); clock set to 2026-11-22T10:30") })
        }
    }

    @Test("Writes of a wrong length or an impossible time fail the way bluetoothd reports the cuff's ATT error")
    func refusedWrites() async throws {
        try await withTeardown { teardown in
            let (harness, path) = try await Self.connected(Self.scenario(#"{"start": "2021-01-01T00:00:00", "writable": true}"#))
            teardown.add { await harness.stop() }
            let short = await #expect(throws: DBusError.self) { try await harness.write([0xEA, 0x07, 0x0B], to: path) }
            #expect(short?.name.rawValue == "org.bluez.Error.InvalidArguments")
            #expect(short?.message == "Invalid Length")
            let impossible = await #expect(throws: DBusError.self) {
                try await harness.write([0xEA, 0x07, 0x0B, 0x1F, 0x0A, 0x00, 0x00, 0x01, 0x00, 0x00], to: path)  // 31 November
            }
            #expect(impossible?.name.rawValue == "org.bluez.Error.Failed")
            #expect(impossible?.message == "Operation failed with ATT error: 0x13")
            #expect(try #require(await harness.emulator.clock(of: EmulatorHarness.address)).year == 2021)
            #expect(!harness.events.all.contains { $0.contains("0x2A2B written") })
        }
    }

    @Test("A clock that cannot be set has no write flag; a write request is refused with NotPermitted")
    func readOnly() async throws {
        try await withTeardown { teardown in
            // The cuff's clock starts from 08:00 when cuff-sim starts, after this moment.
            let starting = ContinuousClock.now
            let (harness, path) = try await Self.connected(Self.scenario(#"{"start": "2019-06-30T08:00:00", "writable": false}"#))
            teardown.add { await harness.stop() }
            #expect(try await harness.property(path, "org.bluez.GattCharacteristic1", "Flags") == ["read", "notify"].dbusValue)
            let value = CurrentTime(dateTime: DateTime(year: 2026, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0)).encoded()
            let refused = await #expect(throws: DBusError.self) { try await harness.write(value, to: path) }
            #expect(refused?.name.rawValue == "org.bluez.Error.NotPermitted")
            #expect(refused?.message == "Write not permitted")
            try await harness.expectClock(runOnFrom: DateTime(year: 2019, month: 6, day: 30, hours: 8, minutes: 0, seconds: 0), since: starting)
        }
    }

    @Test func aCuffWithoutTheTimeServiceHasNoClock() async throws {
        try await withTeardown { teardown in
            let harness = try await EmulatorHarness(ScenarioText.oneCuff())
            teardown.add { await harness.stop() }
            #expect(await harness.emulator.clock(of: EmulatorHarness.address) == nil)
        }
    }
}
