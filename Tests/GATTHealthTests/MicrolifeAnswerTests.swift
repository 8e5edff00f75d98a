import GATTHealth
import Testing

/// Answer frames of a Microlife cuff as docs/reference/GATT-HEALTH.md §13.12 describes them. No bytes a cuff sent
/// are published, so these frames are built here from the layout; the readings are the seven the source's README
/// prints for one download.
@Suite("Microlife: answer frames")
struct MicrolifeAnswerTests {
    /// `4D 3A`, the length, `payload`, and the byte sum.
    private func frame(_ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 1
        let head: [UInt8] = [0x4D, 0x3A, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return head + [head.reduce(0, &+)]
    }

    /// The README's download: 2020-05-16 16:29 130/81 pulse 90, and six more.
    private let printed: [(sys: UInt8, dia: UInt8, pulse: UInt8, month: UInt8, day: UInt8, hour: UInt8, minute: UInt8)] = [
        (130, 81, 90, 5, 16, 16, 29), (133, 84, 58, 5, 17, 10, 43), (125, 80, 81, 5, 19, 19, 26),
        (124, 79, 77, 5, 26, 20, 53), (126, 79, 71, 5, 27, 20, 59), (128, 79, 67, 5, 28, 10, 7), (126, 80, 72, 5, 28, 16, 37),
    ]

    private var readingsPayload: [UInt8] {
        Array(repeating: 0, count: 38) + printed.flatMap { [$0.sys, $0.dia, $0.pulse, 20, $0.month, $0.day, $0.hour, $0.minute, 0xAA, 0x55] }
    }

    @Test("The acknowledgement 4D 3A 00 02 81 0A")
    func acknowledgement() throws {
        let bytes: [UInt8] = [0x4D, 0x3A, 0x00, 0x02, 0x81, 0x0A]
        #expect(frame([0x81]) == bytes)
        let payload = try MicrolifeFrame.payload(decoding: bytes)
        #expect(throws: Never.self) { try MicrolifeFrame.validateAcknowledgement(payload) }
        #expect(throws: MicrolifeError.notAcknowledged([0x80])) { try MicrolifeFrame.validateAcknowledgement([0x80]) }
    }

    @Test("A frame whose start, checksum or length is wrong is refused")
    func badFrames() {
        #expect(throws: MicrolifeError.badStart([0x4D, 0xFF])) { try MicrolifeFrame.payload(decoding: [0x4D, 0xFF, 0x00, 0x02, 0x81, 0xCF]) }
        #expect(throws: MicrolifeError.badChecksum(expected: 0x0A, actual: 0x0B)) {
            try MicrolifeFrame.payload(decoding: [0x4D, 0x3A, 0x00, 0x02, 0x81, 0x0B])
        }
        #expect(throws: MicrolifeError.truncated(required: 6, actual: 5)) { try MicrolifeFrame.payload(decoding: [0x4D, 0x3A, 0x00, 0x02, 0x81]) }
        #expect(throws: MicrolifeError.overlong(announced: 6, actual: 7)) {
            try MicrolifeFrame.payload(decoding: [0x4D, 0x3A, 0x00, 0x02, 0x81, 0x0A, 0x00])
        }
        #expect(throws: MicrolifeError.truncated(required: 5, actual: 4)) { try MicrolifeFrame.payload(decoding: [0x4D, 0x3A, 0x00, 0x00]) }
    }

    @Test("The README's seven readings, sent in 20-byte notifications, come out of the assembler in order")
    func readingsThroughAssembler() throws {
        let bytes = frame(readingsPayload)
        var assembler = MicrolifeFrameAssembler()
        var results: [Result<[UInt8], MicrolifeError>] = []
        for start in stride(from: 0, to: bytes.count, by: 20) {
            if let result = assembler.append(Array(bytes[start ..< min(start + 20, bytes.count)])) { results.append(result) }
        }
        #expect(results.count == 1)
        let readings = try MicrolifeReading.records(decoding: try #require(results.first).get())
        #expect(readings.count == printed.count)
        for (reading, line) in zip(readings, printed) {
            #expect(reading.systolic == line.sys && reading.diastolic == line.dia && reading.pulse == line.pulse)
            #expect(reading.time == DateTime(year: 2020, month: line.month, day: line.day, hours: line.hour, minutes: line.minute, seconds: 0))
            #expect(reading.bytes.suffix(2) == [0xAA, 0x55])
        }
    }

    @Test("The assembler refuses a foreign start at once and a notification past the announced length, then starts afresh")
    func assemblerErrors() {
        var assembler = MicrolifeFrameAssembler()
        #expect(assembler.append([0x4D]) == nil)
        #expect(assembler.append([0x00]) == .failure(.badStart([0x4D, 0x00])))
        #expect(assembler.append([0x4D, 0x3A, 0x00, 0x02]) == nil)
        #expect(assembler.append([0x81, 0x0A, 0xFF]) == .failure(.overlong(announced: 6, actual: 7)))
        #expect(assembler.append([0x4D, 0x3A, 0x00, 0x02, 0x81, 0x0A]) == .success([0x81]))
    }

    @Test("An empty memory is the head alone; a head cut short, a part record or an impossible date is refused")
    func readingsErrors() throws {
        #expect(try MicrolifeReading.records(decoding: Array(repeating: 0, count: 38)).isEmpty)
        #expect(throws: MicrolifeError.truncated(required: 38, actual: 37)) { try MicrolifeReading.records(decoding: Array(repeating: 0, count: 37)) }
        let part = Array(readingsPayload.dropLast(3))
        #expect(throws: MicrolifeError.partialRecord(payloadLength: part.count)) { try MicrolifeReading.records(decoding: part) }
        var impossible = readingsPayload
        impossible[38 + 4] = 13
        let time = DateTime(year: 2020, month: 13, day: 16, hours: 16, minutes: 29, seconds: 0)
        #expect(throws: MicrolifeError.impossibleDate(time)) { try MicrolifeReading.records(decoding: impossible) }
    }

    @Test("Patient IDs: the selected user and both IDs, padding and spaces removed")
    func patientIDs() throws {
        func field(_ text: String) -> [UInt8] { Array(text.utf8) + Array(repeating: 0, count: 20 - text.utf8.count) }
        let payload: [UInt8] = [0x00, 2] + field(" ALICE ") + [0x00] + field("BOB")
        let ids = try MicrolifePatientIDs(decoding: payload)
        #expect(ids == MicrolifePatientIDs(selectedUser: 2, user1: "ALICE", user2: "BOB"))
        #expect(ids.selectedID == "BOB")
        var noUser = payload
        noUser[1] = 0
        #expect(throws: MicrolifeError.unknownUser(0)) { try MicrolifePatientIDs(decoding: noUser) }
        #expect(throws: MicrolifeError.truncated(required: 43, actual: 42)) { try MicrolifePatientIDs(decoding: Array(payload.prefix(42))) }
    }
}
