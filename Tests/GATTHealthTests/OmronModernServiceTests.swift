import GATTHealth
import Testing

/// The 0xFE4A service's transport and token unlock, from hass-omron's documented facts (docs/omron.md §1–§3, §7):
/// `omron_ble/const.py` and `device_catalog.py` (`_MODERN_OS_BONDING_BASE`: one RX, one TX UUID), `devices.py`
/// (`UnlockMode.TOKEN_KEY`, `is_single_channel`), `omron_driver.py` (`_token_unlock`, `_is_token_unlock_ack`,
/// `_write_command_and_wait_reply`, `_on_notify_channel_data`).
@Suite("Omron's 0xFE4A service: whole packets on one channel, the 0x11/0x91 token unlock (docs/omron.md §2, §3, §7)")
struct OmronModernServiceTests {
    @Test func theServiceAndItsChannels() {
        #expect(OmronModernService.uuid == "0000fe4a-0000-1000-8000-00805f9b34fb")
        let stack = OmronStack.modern(tokenUnlock: true)
        #expect(stack.transmitChannels == ["db5b55e0-aee7-11e1-965e-0002a5d5c51b"])
        #expect(stack.receiveChannels == ["49123040-aee8-11e1-a74d-0002a5d5c51b"])
        #expect(OmronStack.isOffered(in: ["0000180a-0000-1000-8000-00805f9b34fb", OmronModernService.uuid]))
        #expect(!OmronStack.isOffered(in: ["00001810-0000-1000-8000-00805f9b34fb"]))
    }

    @Test func theTokenUnlockIsElevenTheTokenAndFifteenZeros() {
        // `_token_unlock`: b"\x11" + token + b"\x00" * 15, "a 20-byte frame".
        let write = OmronUnlock.tokenUnlock([0xDE, 0xAD, 0xBE, 0xEF])
        #expect(write == [0x11, 0xDE, 0xAD, 0xBE, 0xEF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        // `_is_token_unlock_ack`: 0x91, status 0x00, the 4-byte echo.
        #expect(OmronUnlock.Answer(decoding: [0x91, 0x00, 0xDE, 0xAD, 0xBE, 0xEF]) == .tokenEchoed([0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(OmronUnlock.Answer(decoding: [0x91, 0x00, 0xDE, 0xAD, 0xBE, 0xEF]) != .tokenEchoed([0x01, 0x02, 0x03, 0x04]))
        // A status other than 0, or an echo cut short, is no success.
        #expect(OmronUnlock.Answer(decoding: [0x91, 0x01, 0xDE, 0xAD, 0xBE, 0xEF]) == .refused([0x91, 0x01, 0xDE, 0xAD, 0xBE, 0xEF]))
        #expect(OmronUnlock.Answer(decoding: [0x91, 0x00, 0xDE]) == .refused([0x91, 0x00, 0xDE]))
    }

    @Test func aWholePacketIsOnePieceAndOneNotification() throws {
        let stack = OmronStack.modern(tokenUnlock: true)
        // Three 14-byte slots of a 0x2C block (HEM-7142T2 at 0x02E8): 42 data bytes, a 50-byte packet.
        let request = OmronPacket.read(0x02E8, count: 42)
        #expect(request.pieces(stack) == [[0x08, 0x01, 0x00, 0x02, 0xE8, 0x2A, 0x00, 0xC9]])
        let answer = OmronPacket(type: OmronPacket.Kind.readAnswer, address: 0x02E8, data: Array(0 ..< 42))
        let pieces = answer.pieces(stack)
        #expect(pieces.count == 1 && pieces[0].count == 50 && pieces[0].reduce(0, ^) == 0)
        var assembler = OmronPacketAssembler(stack)
        #expect(try assembler.append(pieces[0], channel: 0)?.get() == answer)
        // No second channel: a piece claiming one is not taken; a cut packet is truncated, a flipped bit a bad checksum.
        #expect(assembler.append(pieces[0], channel: 1) == nil)
        #expect(assembler.append(Array(pieces[0].prefix(30)), channel: 0) == .failure(.truncated(required: 50, actual: 30)))
        var flipped = pieces[0]
        flipped[10] ^= 0x04
        #expect(assembler.append(flipped, channel: 0) == .failure(.badChecksum(0x04)))
    }

    @Test func theModelsAndTheirService() throws {
        // `device_catalog.py`: one user at 0x02E8, 14 or 30 slots of 14 bytes, blocks of 0x2C, settings 0x0260/0x02A4.
        let hem7142 = try #require(OmronModel.named("BLESmart HEM-7142T2-Z", offering: [OmronModernService.uuid]))
        #expect(hem7142.stack == .modern(tokenUnlock: true) && hem7142.slotsPerUser == 14 && hem7142.userStartAddresses == [0x02E8])
        #expect(hem7142.layout == .littleEndian14 && hem7142.blockSize == 0x2C && !hem7142.hasCounters && hem7142.clock == .offset8)
        #expect(OmronModel.named("HEM-716BT2")?.slotsPerUser == 30)
        #expect(OmronModel.named("HEM-7146T2")?.stack == .modern(tokenUnlock: false))
        #expect(OmronStack.modern(tokenUnlock: false).needsUnlock == false && OmronStack.classic.needsUnlock)
        // A code on the other service is not that model: HEM-7155T is known on ecbe3980 only.
        #expect(OmronModel.named("HEM-7155T", offering: [OmronModernService.uuid]) == nil)
        #expect(OmronModel.named("HEM-7142T2", offering: [OmronService.uuid]) == nil)
        #expect(OmronModel.names(speaking: OmronModernService.uuid) == ["HEM-7142T2", "HEM-716BT2", "HEM-7146T2", "HEM-7188T1", "HEM-7183T1"])
    }
}
