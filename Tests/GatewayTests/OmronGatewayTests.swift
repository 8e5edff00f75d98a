import BlueZ
import DBusTestSupport
import Foundation
import Gateway
import GATTHealth
import Testing

/// An Omron cuff through Omron's own service (docs/omron.md §6) over cuff-sim: what the shipped scenarios do
/// not show — the journal's counts, people, a cuff not in pairing mode, a block that keeps arriving broken.
@Suite("Gateway over cuff-sim: Omron cuffs")
struct OmronGatewayTests {
    @Test("Erased slots and impossible records are skipped and counted; a re-read block is stored once")
    func skippedRecordsAreCounted() async throws {
        try await GatewayHarness.afterExpectedReadings("omron-clock-reset.json") { harness in
            let address = BluetoothAddress("28:FF:B2:10:7A:05")!
            let downloaded = try await harness.next { if case .recordsDownloaded(address, _) = $0 { true } else { false } }
            guard case .recordsDownloaded(_, let count) = downloaded else { return }
            // Five decoded, of which the diastolic 0 is a failed measurement, not a reading.
            #expect(count == 5)
            let skipped = try await harness.next { event in
                if case .problem(address, let text) = event { text.hasPrefix("skipped") } else { false }
            }
            guard case .problem(_, let text) = skipped else { return }
            #expect(text.contains("skipped 1 erased Omron slot(s) (all FF) and 1 record(s) that decode to nonsense"))
            #expect(text.contains("impossible date 2026-13-1"))
            #expect(harness.log.count("answered with a broken check byte") == 2)
        }
    }

    @Test("Omron user numbers map to the people the configuration names; records carry the status bits")
    func peopleAndStatus() async throws {
        try await GatewayHarness.afterExpectedReadings("omron-two-users.json", people: [1: "alice", 2: "bob"], on: "28:FF:B2:10:4C:31") { harness in
            let readings = await harness.store.readings
            #expect(Set(readings.map { "\($0.userID ?? 0) \($0.person ?? "-")" }) == ["1 alice", "2 bob"])
            let irregular = try #require(readings.first { $0.systolic.doubleValue == 142 })
            #expect(irregular.status?.irregularPulse == true && irregular.status?.bodyMovement == false)
            #expect(readings.first { $0.systolic.doubleValue == 128 }?.status?.bodyMovement == true)
            // The cuff-fit bit (docs/omron.md §5): clear on the one record the scenario wrapped loosely.
            #expect(readings.filter { $0.status?.cuffTooLoose == true }.map(\.systolic.doubleValue) == [117])
            #expect(readings.allSatisfy { $0.meanArterialPressure == nil })
        }
    }

    @Test("The clock block is read before the records (its offset goes with them) and set to local time after")
    func clockSync() async throws {
        try await GatewayHarness.afterExpectedReadings("omron-two-users.json") { harness in
            let address = BluetoothAddress("28:FF:B2:10:4C:31")!
            let synchronized = try await harness.next { if case .clockSynchronized(address, _, _) = $0 { true } else { false } }
            guard case let .clockSynchronized(_, offset, written) = synchronized else { return }
            // The cuff showed 2021-06-01 12:00: years behind.
            #expect(written && offset > .seconds(3 * 365 * 86_400))
            let shows = try #require(await harness.emulator.omronClock(of: address))
            let local = DateTime(Date(), in: LocalTimeZone())
            #expect(shows.year == local.year && shows.month == local.month && shows.day == local.day)
            #expect(await harness.gateway.status(address)?.clockOffset.map { abs($0.components.seconds) < 5 } == true)
        }
    }

    @Test("HEM-7320T: little-endian records, big-endian counters, a linear clock; a low battery said once, an upper-arm cuff's position bits not")
    func hem7320t() async throws {
        try await GatewayHarness.afterExpectedReadings("omron-hem7320t.json") { harness in
            let address = BluetoothAddress("28:FF:B2:10:73:20")!
            // The model came from the Model Number String (HEM-7320T-Z); the ring of user 1 wrapped from slot 58 to 1.
            let readings = await harness.store.readings
            #expect(readings.count == 5 && readings.allSatisfy { $0.status?.improperPosition == false })
            // Both users' unread words were written back as "none unread", big-endian (0x8000 reads as 0).
            #expect(await harness.emulator.omronCounters(of: address) == OmronCounters(nextSlots: [2, 2], unread: [0, 0]))
            let synchronized = try await harness.next { if case .clockSynchronized(address, _, _) = $0 { true } else { false } }
            guard case let .clockSynchronized(_, offset, written) = synchronized else { return }
            #expect(written && offset > .seconds(3 * 365 * 86_400))
            #expect(await harness.emulator.omronClock(of: address)?.year == DateTime(Date(), in: LocalTimeZone()).year)
            let battery = try await harness.next { event in
                if case .problem(address, let text) = event { text.contains("batteries") } else { false }
            }
            guard case .problem(_, let text) = battery else { return }
            #expect(text == "the cuff's batteries are low: its record of 2026-09-04T21:15:00 says they should be replaced")
        }
    }

    @Test("HEM-6161T: a wrist cuff's position bits flag its readings; no counters, every slot read; the classic offset 8 clock")
    func hem6161t() async throws {
        try await GatewayHarness.afterExpectedReadings("omron-hem6161t.json") { harness in
            let address = BluetoothAddress("28:FF:B2:10:61:61")!
            // Positions 1 and 2: the wrist was not at heart level (docs/omron.md §5); the others are 0.
            let readings = await harness.store.readings
            #expect(readings.filter { $0.status?.improperPosition == true }.map(\.systolic.doubleValue).sorted() == [130, 137])
            let synchronized = try await harness.next { if case .clockSynchronized(address, _, _) = $0 { true } else { false } }
            guard case let .clockSynchronized(_, offset, written) = synchronized else { return }
            #expect(written && offset > .seconds(2 * 365 * 86_400))
            #expect(await harness.emulator.omronClock(of: address)?.year == DateTime(Date(), in: LocalTimeZone()).year)
        }
    }

    static let wrapped = BluetoothAddress("28:FF:B2:10:91:6E")!

    /// `file` with `edits` (text → replacement, each text present) over cuff-sim, stopped by `teardown`.
    static func harness(_ file: String, _ edits: [String: String], _ teardown: Teardown) async throws -> GatewayHarness {
        var json = try String(contentsOf: GatewayHarness.folder.appendingPathComponent(file), encoding: .utf8)
        for (text, replacement) in edits {
            #expect(json.contains(text))
            json = json.replacingOccurrences(of: text, with: replacement)
        }
        let harness = try await GatewayHarness(Data(json.utf8))
        teardown.add { await harness.stop() }
        return harness
    }

    /// `file` (omron-wrapped.json) with `edits`: pairing its cuff at `address` (with `passkey`) must fail; `body`
    /// gets the harness and the error.
    static func pairingError(
        _ edits: [String: String], file: String = "omron-wrapped.json", address: BluetoothAddress = wrapped, passkey: UInt32? = nil,
        _ body: (GatewayHarness, GatewayError) async throws -> Void
    ) async throws {
        try await withTeardown { teardown in
            let harness = try await Self.harness(file, edits, teardown)
            do {
                _ = try await harness.gateway.pair(address, passkey: passkey, timeout: .seconds(30))
                Issue.record("pairing succeeded")
            } catch let error as GatewayError {
                try await body(harness, error)
            }
        }
    }

    @Test("A cuff not in pairing mode: pair is refused in words and leaves no bond, key or cuff behind")
    func notInPairingMode() async throws {
        try await Self.pairingError(["\"model\": \"HEM-7155T\",\n": "\"model\": \"HEM-7155T\", \"pairingMode\": false,\n"]) { harness, error in
            guard case .refused(Self.wrapped, let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("not in pairing mode: hold its Bluetooth button until \"P\" blinks"))
            try await Self.expectNothingLeft(harness)
        }
    }

    @Test("A wrong passkey: bluetoothd's refusal is passed on, and nothing of the cuff stays")
    func wrongPasskey() async throws {
        try await Self.pairingError(["\"pairing\": \"justWorks\"": "\"pairing\": \"passkey:123456\""], passkey: 111_111) { harness, error in
            guard case .bluez(let refusal) = error else { Issue.record("\(error)"); return }
            #expect(refusal.kind == .authenticationFailed)
            #expect(harness.log.count("Omron unlock written") == 0)
            try await Self.expectNothingLeft(harness)
        }
    }

    /// After a failed pairing: the Gateway no longer knows the cuff, bluetoothd's device (and any bond) is removed,
    /// no key or identity is remembered, nothing is stored.
    static func expectNothingLeft(_ harness: GatewayHarness, _ address: BluetoothAddress = wrapped) async throws {
        #expect(await harness.gateway.status(address) == nil)
        #expect(harness.log.count("removed by RemoveDevice; bond forgotten") == 1)
        #expect(await harness.registry.records()[address] == nil)
        #expect(await harness.store.readings.isEmpty)
    }

    @Test("A cuff whose name and Model Number name no known model: pair says which models cuffd knows, and leaves no bond")
    func unknownModel() async throws {
        let edits = ["\"name\": \"HEM-7155T\"": "\"name\": \"BLESmart_00001234\"", "\"model\": \"HEM-7155T\", \"serial\"": "\"model\": \"HEM-9999T\", \"serial\""]
        try await Self.pairingError(edits) { harness, error in
            #expect("\(error)".contains("BLESmart_00001234 offers Omron's service ecbe3980, but cuffd knows its memory there only for HEM-7150T, HEM-7151T, HEM-7155T"))
            #expect(!"\(error)".contains("HEM-7142T2"))
            #expect(await harness.gateway.status(Self.wrapped) == nil)
            #expect(harness.log.count("Omron unlock written") == 0)
        }
    }

    @Test("A block that keeps arriving broken: three tries, then the download ends and nothing of it is stored")
    func brokenBlocksEndTheDownload() async throws {
        try await Self.expectBrokenBlocksEndTheDownload("omron-wrapped.json", model: "HEM-7155T", address: Self.wrapped, corruptReads: 3)
    }

    /// Pairs the cuff of `file` (of `model`) with `corruptReads` read answers broken: the download must stop after
    /// three tries of one block, and nothing of it be stored.
    static func expectBrokenBlocksEndTheDownload(_ file: String, model: String, address: BluetoothAddress, corruptReads: Int) async throws {
        try await withTeardown { teardown in
            let edit = ["\"model\": \"\(model)\",\n": "\"model\": \"\(model)\", \"corruptReads\": \(corruptReads),\n"]
            let harness = try await Self.harness(file, edit, teardown)
            _ = try await harness.gateway.pair(address, passkey: nil, timeout: .seconds(30))
            let stopped = try await harness.next { event in
                if case .problem(address, let text) = event { text.contains("download stopped") } else { false }
            }
            guard case .problem(_, let text) = stopped else { return }
            #expect(text.contains("bad checksum") && text.contains("3 times; nothing of that block was stored"), "\(text)")
            #expect(await harness.store.readings.isEmpty)
        }
    }
}
