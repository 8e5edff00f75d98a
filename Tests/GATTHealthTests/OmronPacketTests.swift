import GATTHealth
import Testing

@Suite("Omron packets and their XOR check (reverse-engineered, docs/omron.md §3)")
struct OmronPacketTests {
    @Test func commandsAreTheBytesOmblepySends() throws {
        // omblepy `omblepy.py`: startTransmission and endTransmission; `README.md`: a read of 0x26 bytes at 0x0260.
        #expect(OmronPacket.start.encoded() == [0x08, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x18])
        #expect(OmronPacket.end.encoded() == [0x08, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07])
        #expect(OmronPacket.read(0x0260, count: 0x26).encoded() == [0x08, 0x01, 0x00, 0x02, 0x60, 0x26, 0x00, 0x4D])
    }

    @Test func aReadAnswerDecodesAndMatchesItsRequest() throws {
        let request = OmronPacket.read(0x02AC, count: 4)
        let answer = OmronPacket(type: OmronPacket.Kind.readAnswer, address: 0x02AC, data: [1, 2, 3, 4])
        let bytes = answer.encoded()
        #expect(bytes.count == 12 && bytes.reduce(0, ^) == 0)
        let decoded = try OmronPacket(decoding: bytes)
        #expect(decoded == answer)
        try decoded.validate(answering: request)
        #expect(throws: OmronError.unexpectedAddress(0x02AC)) { try decoded.validate(answering: .read(0x02B0, count: 4)) }
        #expect(throws: OmronError.truncated(required: 8, actual: 4)) { try decoded.validate(answering: .read(0x02AC, count: 8)) }
        #expect(throws: OmronError.unexpectedType(0x8100)) { try decoded.validate(answering: .end) }
    }

    @Test func aFlippedBitIsABadChecksum() {
        var bytes = OmronPacket(type: OmronPacket.Kind.readAnswer, address: 0x10, data: [0xAA, 0x55]).encoded()
        bytes[6] ^= 0x01
        #expect(throws: OmronError.badChecksum(0x01)) { try OmronPacket(decoding: bytes) }
    }

    @Test func lengthsOutsideThePacketAreRefused() {
        #expect(throws: OmronError.badLength(0x07)) { try OmronPacket(decoding: [0x07, 0, 0, 0, 0, 0, 0, 0x07]) }
        #expect(throws: OmronError.badLength(0x41)) { try OmronPacket(decoding: [0x41] + [UInt8](repeating: 0, count: 0x40)) }
        #expect(throws: OmronError.truncated(required: 12, actual: 8)) { try OmronPacket(decoding: [0x0C, 0, 0, 0, 0, 0, 0, 0x0C]) }
        #expect(throws: OmronError.truncated(required: 8, actual: 0)) { try OmronPacket(decoding: []) }
    }

    @Test func anEndAnswerWithAStatusIsAnError() throws {
        let answer = try OmronPacket(decoding: OmronPacket(type: OmronPacket.Kind.endAnswer, status: 3).encoded())
        #expect(throws: OmronError.status(3)) { try answer.validate(answering: .end) }
    }

    @Test func piecesAreJoinedOnceEveryChannelTheLengthNeedsHasArrived() throws {
        let answer = OmronPacket(type: OmronPacket.Kind.readAnswer, address: 0x0824, data: Array(0 ..< 0x38))
        let pieces = answer.pieces()
        #expect(pieces.count == 4 && pieces.allSatisfy { $0.count <= 16 })
        var assembler = OmronPacketAssembler()
        // Out of order, as notifications on four characteristics may come.
        #expect(assembler.append(pieces[2], channel: 2) == nil)
        #expect(assembler.append(pieces[0], channel: 0) == nil)
        #expect(assembler.append(pieces[3], channel: 3) == nil)
        #expect(try assembler.append(pieces[1], channel: 1)?.get() == answer)
        // Cleared: a new packet starts from nothing.
        let short = OmronPacket(type: OmronPacket.Kind.startAnswer, data: [UInt8](repeating: 0, count: 0x10))
        #expect(assembler.append(short.pieces()[0], channel: 0) == nil)
        #expect(try assembler.append(short.pieces()[1], channel: 1)?.get() == short)
        var corrupt = short.pieces()
        corrupt[1][0] ^= 0x80
        #expect(assembler.append(corrupt[0], channel: 0) == nil)
        #expect(assembler.append(corrupt[1], channel: 1) == .failure(.badChecksum(0x80)))
        #expect(assembler.append([1, 2], channel: 4) == nil)
    }

    @Test func unlockCommandsAndAnswers() {
        let key = [UInt8](1 ... 16)
        #expect(OmronUnlock.enterKeyProgramming == [0x02] + [UInt8](repeating: 0, count: 16))
        #expect(OmronUnlock.program(key) == [0x00] + key)
        #expect(OmronUnlock.unlock(key) == [0x01] + key)
        #expect(OmronUnlock.Answer(decoding: [0x82, 0x00]) == .keyProgrammingReady)
        #expect(OmronUnlock.Answer(decoding: [0x80, 0x00, 0x11]) == .keyStored)
        #expect(OmronUnlock.Answer(decoding: [0x81, 0x00]) == .unlocked)
        #expect(OmronUnlock.Answer(decoding: [0x82, 0x01]) == .refused([0x82, 0x01]))
        #expect(OmronUnlock.Answer(decoding: []) == .refused([]))
    }
}
