import BlueZ
import CuffSimulation
import DBusTestSupport
import Foundation
import GATTHealth
import Gateway
import GatewayTestSupport
import Synchronization
import Testing

/// A Microlife BP3GY1-2N on the Gateway (docs/reference/GATT-HEALTH.md §13.12, docs/gateway.md "Microlife"): on every
/// link its clock set to local time, the patient IDs and the whole memory read, *disconnect* sent, no patient ID
/// written; the memory it re-sends stored once; a broken answer a problem the Gateway outlives.
@Suite("Gateway in-process: Microlife cuffs", .timeLimit(.minutes(1)))
struct MicrolifeGatewayTests {
    static let cuff = BluetoothAddress("C4:7C:8D:6A:31:20")!

    static func downloaded(_ event: GatewayEvent) -> Bool {
        if case .recordsDownloaded(Self.cuff, _) = event { true } else { false }
    }

    /// The writes of one link's download, in order: clock, patient IDs, readings, disconnect.
    static func oneLink() throws -> [[UInt8]] {
        let local = DateTime(EmbeddedGateway.now, in: LocalTimeZone())
        return try MicrolifeCommand.setDateTime(local).writes() + MicrolifeCommand.patientIDs.writes() + MicrolifeCommand.readings.writes()
            + MicrolifeCommand.disconnect.writes()
    }

    @Test("Each link: clock, patient IDs, memory, disconnect; readings under the selected user 2, though it has no ID; the memory re-sent on the next link stored once")
    func everyLink() async throws {
        let run = try await ScenarioRun.start("microlife-bp3gy1.json")
        try await run.pairAll()
        _ = try await run.rig.next(where: Self.downloaded)
        try await run.waitForExpectedReadings()
        await run.rig.settled()
        #expect(await run.central.writes(to: MicrolifeService.command) == (try Self.oneLink()), "no set patient ID (06) among them")
        #expect(await run.gateway.status(Self.cuff)?.connected == false, "disconnect ended the link")

        // The cuff is woken again (START held 8 s) and sends its whole memory once more.
        await run.central.perform(.advertise, on: Self.cuff)
        _ = try await run.rig.next(where: Self.downloaded)
        await run.rig.settled()
        #expect(await run.central.writes(to: MicrolifeService.command) == (try Self.oneLink()) + (try Self.oneLink()))
        try await run.waitForExpectedReadings()
        let outcomes = run.rig.events.all.compactMap { event -> CommitOutcome? in
            if case .session(_, .readingStored(_, let outcome)) = event { outcome } else { nil }
        }
        #expect(outcomes.filter { $0 == .stored }.count == 3 && outcomes.count == 6, "\(outcomes)")
        #expect(run.rig.events.all.contains { if case .clockSynchronized(Self.cuff, nil, true) = $0 { true } else { false } })
        await run.rig.stop()
    }

    @Test("ClockSync=no: the clock is left alone, the memory still read")
    func noClockSync() async throws {
        var configuration = GatewayConfiguration()
        configuration.clockSync = false
        try await ScenarioRun.afterExpectedReadings("microlife-bp3gy1.json", configuration: configuration) { run in
            let codes = await run.central.writes(to: MicrolifeService.command).map { $0[4] }
            #expect(codes == [MicrolifeCommand.Code.patientIDs, MicrolifeCommand.Code.readings, MicrolifeCommand.Code.disconnect])
        }
    }

    @Test("A readings answer with a bad checksum: a problem naming the command and the checksum, nothing stored, the Gateway goes on")
    func badChecksum() async throws {
        try await brokenAnswer(
            { notifications in
                var broken = notifications
                broken[broken.count - 1].bytes[broken[broken.count - 1].bytes.count - 1] &+= 1
                return broken
            },
            says: "the Microlife download stopped: the answer to get readings was refused: bad checksum")
    }

    @Test("A readings answer too short for its 38-byte head: a problem saying so, nothing stored")
    func shortAnswer() async throws {
        try await brokenAnswer(
            { _ in MicrolifeFrame.answer(Array(repeating: 0, count: 20)).pieces(of: MicrolifeService.writeSize).map { EmbeddedPeripheral.Notification(MicrolifeService.notify, $0) } },
            says: "the Microlife download stopped: the answer to get readings was refused: truncated: 20 bytes, 38 needed")
    }

    @Test("A cuff that does not answer: after 60 s a problem naming the command, nothing stored, the pairing returns, the Gateway goes on")
    func noAnswer() async throws {
        let rig = try await Self.rig { _, _, _ in [] }
        let pairing = Task { try await rig.gateway.pair(Self.cuff, passkey: nil, timeout: .seconds(10)) }
        // The one answer awaited, set date and time's: nothing else sleeps for 60 s.
        await rig.clock.advanceWhenSleeping(for: .seconds(60))
        _ = try await pairing.value
        try await Self.expectProblem(rig, "the Microlife download stopped: no answer to set date and time within")
        await rig.stop()
    }

    /// Pairs the scenario's cuff with its answer to *get readings* changed by `breaking`; expects a problem starting
    /// `says`, no reading stored and the Gateway still answering.
    private func brokenAnswer(
        _ breaking: @escaping @Sendable ([EmbeddedPeripheral.Notification]) -> [EmbeddedPeripheral.Notification], says: String
    ) async throws {
        let scenario = try EmbeddedPeripheral.scenario("microlife-bp3gy1.json")
        let cuff = Mutex(MicrolifeCuff(try #require(scenario.cuffs[0].microlife)))
        let rig = try await Self.rig { bytes, _, _ in
            let answer = cuff.withLock { $0.write(bytes) }.notifications.map { EmbeddedPeripheral.Notification(MicrolifeService.notify, $0) }
            return bytes == MicrolifeCommand.readings.encoded() ? breaking(answer) : answer
        }
        _ = try await rig.gateway.pair(Self.cuff, passkey: nil, timeout: .seconds(10))
        try await Self.expectProblem(rig, says)
        await rig.stop()
    }

    /// The scenario's cuff on an in-process Gateway, its 0xFFF2 answered by `commands`.
    private static func rig(_ commands: @escaping EmbeddedPeripheral.WriteHandler) async throws -> EmbeddedGateway {
        var peripheral = EmbeddedPeripheral(try EmbeddedPeripheral.scenario("microlife-bp3gy1.json").cuffs[0])
        peripheral.writeHandlers[MicrolifeService.command] = commands
        return try await EmbeddedGateway.start([peripheral])
    }

    /// A problem starting `says` was reported; no reading stored, no download counted, the Gateway still answers.
    private static func expectProblem(_ rig: EmbeddedGateway, _ says: String) async throws {
        let problem = try await rig.next { if case .problem(Self.cuff, let text) = $0 { text.hasPrefix(says) } else { false } }
        #expect("\(problem)".contains(says))
        #expect(await rig.store.readings.isEmpty)
        #expect(!rig.events.all.contains(where: Self.downloaded))
        #expect(await rig.gateway.status(Self.cuff) != nil, "the Gateway still answers")
    }
}

/// The Microlife cuff over cuff-sim, end to end: its frames in 20-byte writes and notifications through the emulated
/// bluetoothd. The shipped scenario shows the readings; this shows what the cuff was told.
@Suite("Gateway over cuff-sim: Microlife cuffs")
struct MicrolifeCuffSimTests {
    @Test("BP3GY1-2N: its clock set to local time, its memory read, no patient ID written")
    func download() async throws {
        try await GatewayHarness.afterExpectedReadings("microlife-bp3gy1.json") { harness in
            let address = MicrolifeGatewayTests.cuff
            #expect(await harness.emulator.microlifeClock(of: address)?.year == DateTime(Date(), in: LocalTimeZone()).year)
            #expect(harness.log.count("Microlife memory sent: 3 reading(s)") >= 1)
            #expect(harness.log.count("Microlife patient ID of user") == 0, "no patient ID written")
        }
    }
}
