import GATTHealth
import Testing

/// What an emulated Microlife cuff sends (docs/reference/GATT-HEALTH.md §13.12), built by the codec and read back by it:
/// answer frames, the patient-ID answer, the readings answer; and command frames joined as a cuff joins them.
@Suite("Microlife: frames a cuff sends")
struct MicrolifeEncodingTests {
    @Test("An answer frame: 4D 3A, the length after itself, the payload, the byte sum; decoded back to its payload")
    func answerFrame() throws {
        #expect(MicrolifeFrame.answer([0x81]) == [0x4D, 0x3A, 0x00, 0x02, 0x81, 0x4D &+ 0x3A &+ 0x02 &+ 0x81])
        let payload: [UInt8] = Array(0 ..< 60)
        #expect(try MicrolifeFrame.payload(decoding: MicrolifeFrame.answer(payload)) == payload)
    }

    @Test("The command frames the source publishes are built by the same rule, with 4D FF")
    func commandRule() {
        #expect(MicrolifeFrame.encoded(start: MicrolifeFrame.commandStart, [0x04]) == [0x4D, 0xFF, 0x00, 0x02, 0x04, 0x52])
    }

    @Test("Patient IDs: byte 1 the selected user, IDs zero-padded at 2–21 and 23–42; decoded back alike")
    func patientIDs() throws {
        let ids = MicrolifePatientIDs(selectedUser: 2, user1: "ANNA", user2: "")
        let bytes = ids.encoded()
        #expect(bytes.count == MicrolifePatientIDs.size)
        #expect(bytes[1] == 2 && Array(bytes[2 ..< 6]) == Array("ANNA".utf8) && bytes[6 ..< 43].allSatisfy { $0 == 0 })
        #expect(try MicrolifePatientIDs(decoding: bytes) == ids)
    }

    @Test("A readings answer: 38 bytes of head, then 10-byte records; decoded back to the same readings")
    func readingsAnswer() throws {
        let first = try MicrolifeReading(
            systolic: 130, diastolic: 81, pulse: 90, time: DateTime(year: 2020, month: 5, day: 16, hours: 16, minutes: 29, seconds: 42))
        let second = try MicrolifeReading(
            systolic: 127, diastolic: 79, pulse: 84, time: DateTime(year: 2020, month: 5, day: 17, hours: 7, minutes: 12, seconds: 0))
        #expect(first.bytes == [130, 81, 90, 20, 5, 16, 16, 29, 0, 0], "the seconds dropped")
        #expect(first.time.seconds == 0)
        let payload = MicrolifeReading.answer([first, second])
        #expect(payload.count == MicrolifeReading.headSize + 2 * MicrolifeReading.size)
        #expect(try MicrolifeReading.records(decoding: payload) == [first, second])
        #expect(throws: MicrolifeError.yearOutOfRange(1999)) {
            try MicrolifeReading(systolic: 1, diastolic: 1, pulse: 1, time: DateTime(year: 1999, month: 1, day: 1, hours: 0, minutes: 0, seconds: 0))
        }
    }

    @Test("A cuff joins the host's 20-byte writes into one command; an answer frame where a command belongs is refused")
    func joinsCommands() throws {
        var assembler = MicrolifeFrameAssembler(start: MicrolifeFrame.commandStart)
        let command = try MicrolifeCommand.setPatientID("A PATIENT ID")
        let writes = command.writes()
        try #require(writes.count == 2)
        #expect(assembler.append(writes[0]) == nil)
        #expect(assembler.append(writes[1]) == .success([command.code] + command.parameters))
        #expect(assembler.append(MicrolifeFrame.answer([0x81])) == .failure(.badStart([0x4D, 0x3A])))
    }
}
