import DBusTestSupport
@testable import CuffSimulation
import DBus
import GATTHealth
import Testing

/// The emulated Omron cuff (docs/omron.md §2–§4; docs/cuff-sim.md "Omron") spoken to directly over D-Bus.
@Suite("cuff-sim: an Omron cuff's key, packets and memory")
struct OmronEmulationTests {
    static let omron = #"""
        "vendor": "omron", "omron": {"model": "HEM-7322T", "users": [
          {"firstSlot": 99, "records": [
            {"systolic": 120, "diastolic": 80, "pulse": 60, "time": "2026-01-02T03:04:05"},
            {"systolic": 130, "diastolic": 85, "pulse": 70, "time": "2026-01-03T03:04:05"}]}]}
        """#
    static let timeline = #"[{"after": 0.1, "measure": {"systolic": 140, "diastolic": 90, "pulse": 75, "time": "2026-01-04T03:04:05"}}]"#

    /// A connected HEM-7322T with its unlock characteristic and receive channels subscribed.
    final class Link: Sendable {
        let harness: EmulatorHarness
        let unlock: DBusObjectPath
        let transmit: [DBusObjectPath]
        let receive: [DBusObjectPath]

        init() async throws {
            harness = try await EmulatorHarness(ScenarioText.oneCuff(timeline: OmronEmulationTests.timeline, services: "[]", extra: OmronEmulationTests.omron))
            try await harness.discover()
            try await harness.connectAndResolve()
            unlock = try await harness.characteristicPath(OmronService.unlock)
            var transmit: [DBusObjectPath] = [], receive: [DBusObjectPath] = []
            for uuid in OmronService.transmitChannels { transmit.append(try await harness.characteristicPath(uuid)) }
            for uuid in OmronService.receiveChannels { receive.append(try await harness.characteristicPath(uuid)) }
            (self.transmit, self.receive) = (transmit, receive)
            // Where real cuffs have them, and omblepy looks for them (docs/omron.md §1).
            #expect(receive.map { $0.text.suffix(8) } == ["char0360", "char0370", "char0380", "char0390"])
            for path in [unlock] + receive { try await harness.startNotify(path) }
        }

        /// Writes to the unlock characteristic and returns its notification.
        func unlockAnswer(_ value: [UInt8]) async throws -> [UInt8] {
            let signals = try await harness.recordSignals()
            try await harness.write(value, to: unlock)
            let message = try await signals.next { $0.changes(self.unlock)?["Value"] != nil }
            guard case .bytes(let answer)? = message.changes(unlock)?["Value"] else { return [] }
            return answer
        }

        /// Sends `packet` in pieces and returns the answer joined from the receive channels. The cuff answers while
        /// it takes the last piece, before that write is answered: once the signals are synced, the answer is
        /// recorded, or the cuff stayed silent.
        func exchange(_ packet: OmronPacket) async throws -> OmronPacket {
            let signals = try await harness.recordSignals()
            for (channel, piece) in packet.pieces().enumerated() { try await harness.write(piece, to: transmit[channel]) }
            try await harness.sync(signals)
            var assembler = OmronPacketAssembler()
            for message in signals.all {
                for (channel, path) in receive.enumerated() {
                    if case .bytes(let piece)? = message.changes(path)?["Value"], let whole = assembler.append(piece, channel: channel) {
                        return try whole.get()
                    }
                }
            }
            throw TestFailure("no answer to \(packet)")
        }
    }

    @Test("Key programming only in pairing mode; the unlock takes only that key")
    func keyAndUnlock() async throws {
        try await withTeardown { teardown in
            let link = try await Link()
            teardown.add { await link.harness.stop() }
            let key = [UInt8](repeating: 0x5C, count: 16)
            #expect(try await link.unlockAnswer(OmronUnlock.unlock(key)) == [0x81, 0x01])
            #expect(try await link.unlockAnswer(OmronUnlock.program(key)) == [0x80, 0x01])
            #expect(try await link.unlockAnswer(OmronUnlock.enterKeyProgramming) == [0x82, 0x00])
            #expect(try await link.unlockAnswer(OmronUnlock.program(key)) == [0x80, 0x00])
            // Out of pairing mode now: no second key.
            #expect(try await link.unlockAnswer(OmronUnlock.enterKeyProgramming) == [0x82, 0x01])
            #expect(try await link.unlockAnswer(OmronUnlock.unlock([UInt8](repeating: 1, count: 16))) == [0x81, 0x01])
            #expect(try await link.unlockAnswer(OmronUnlock.unlock(key)) == [0x81, 0x00])
            await #expect(throws: (any Error).self) { try await link.harness.write([0x01, 0x02], to: link.unlock) }
        }
    }

    @Test("Packets answer from the memory laid out per model: counters, a wrapped ring, the settings write, a measure step")
    func memory() async throws {
        try await withTeardown { teardown in
            let link = try await Link()
            teardown.add { await link.harness.stop() }
            let model = OmronModel.named("HEM-7322T")!
            let key = [UInt8](repeating: 7, count: 16)
            // Locked: the cuff stays silent.
            await #expect(throws: (any Error).self) { try await link.exchange(.start) }
            _ = try await link.unlockAnswer(OmronUnlock.enterKeyProgramming)
            _ = try await link.unlockAnswer(OmronUnlock.program(key))
            // The link that programmed the key may transmit (omblepy's -p), and unlock too.
            #expect(try await link.exchange(.start).type == OmronPacket.Kind.startAnswer)
            #expect(try await link.unlockAnswer(OmronUnlock.unlock(key)) == [0x81, 0x00])
            let counters = try OmronCounters(decoding: try await link.exchange(.read(model.settingsReadAddress, count: 8)).data, model: model)
            // Written from slot 99 on: slot 99, then slot 0; the next is 1.
            #expect(counters == OmronCounters(nextSlots: [1, 0], unread: [2, 0]))
            #expect(counters.unreadSlots(user: 0, slotsPerUser: 100) == [99, 0])
            let oldest = try await link.exchange(.read(model.address(user: 0, slot: 99), count: 14)).data
            #expect(try OmronRecord(decoding: oldest, layout: model.layout).systolic == 120)
            let reset = OmronCounters.resetUnread(model: model)
            #expect(try await link.exchange(.write(model.settingsWriteAddress + reset.offset, reset.bytes)).type == OmronPacket.Kind.writeAnswer)
            let after = try await link.exchange(.read(model.settingsReadAddress, count: 8)).data
            #expect(try OmronCounters(decoding: after, model: model).unread == [0, 0])
            let end = try await link.exchange(.end)
            try end.validate(answering: .end)
            // The end started the timeline: one new record in slot 1, counted unread.
            try await link.harness.events.waitFor("Omron user 1 measured")
            let now = try OmronCounters(decoding: try await link.exchange(.read(model.settingsReadAddress, count: 8)).data, model: model)
            #expect(now == OmronCounters(nextSlots: [2, 0], unread: [1, 0]))
        }
    }
}
