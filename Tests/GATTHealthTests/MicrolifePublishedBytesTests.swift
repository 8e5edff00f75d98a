import GATTHealth
import Testing

/// The command frames joergmlpts/blood-pressure-monitor publishes in `bpm_bt.py` for the Microlife BP3GY1-2N
/// (docs/reference/GATT-HEALTH.md §13.12), encoded as cuffd encodes them. They are constants of a downloader's
/// source, not a capture; the cuff's answers are not published (`MicrolifeAnswerTests`).
@Suite("Microlife: the command frames joergmlpts/blood-pressure-monitor publishes")
struct MicrolifePublishedBytesTests {
    @Test("disconnect 4D FF 00 02 04 52, get patient IDs 4D FF 00 02 05 53, get readings 4D FF 00 09 00 … FD 52")
    func fixedCommands() {
        #expect(MicrolifeCommand.disconnect.encoded() == [0x4D, 0xFF, 0x00, 0x02, 0x04, 0x52])
        #expect(MicrolifeCommand.patientIDs.encoded() == [0x4D, 0xFF, 0x00, 0x02, 0x05, 0x53])
        #expect(MicrolifeCommand.readings.encoded() == [0x4D, 0xFF, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFD, 0x52])
    }

    @Test("set patient ID fills the source's template (4D FF 00 18 06 FD, 20 ID bytes, D8) and appends the byte sum")
    func setPatientID() throws {
        let frame = try MicrolifeCommand.setPatientID("ALICE").encoded()
        let id: [UInt8] = [0x41, 0x4C, 0x49, 0x43, 0x45] + Array(repeating: 0, count: 15)
        #expect(frame == [0x4D, 0xFF, 0x00, 0x18, 0x06, 0xFD] + id + [0xD8, 0x9D])
        #expect(try MicrolifeCommand.setPatientID("ALICE").writes().map(\.count) == [20, 8])
    }

    @Test("set date and time: year − 2000 and the other fields as plain bytes, then the byte sum")
    func setDateTime() throws {
        let time = DateTime(year: 2020, month: 5, day: 16, hours: 16, minutes: 29, seconds: 5)
        #expect(try MicrolifeCommand.setDateTime(time).encoded() == [0x4D, 0xFF, 0x00, 0x08, 0x0D, 0x14, 0x05, 0x10, 0x10, 0x1D, 0x05, 0xBC])
    }

    @Test("A year the cuff's byte cannot hold, and a patient ID that is too long or not ASCII, are refused")
    func refusals() {
        let early = DateTime(year: 1999, month: 12, day: 31, hours: 23, minutes: 59, seconds: 59)
        #expect(throws: MicrolifeError.yearOutOfRange(1999)) { try MicrolifeCommand.setDateTime(early) }
        let long = String(repeating: "A", count: 21)
        #expect(throws: MicrolifeError.invalidPatientID(long)) { try MicrolifeCommand.setPatientID(long) }
        #expect(throws: MicrolifeError.invalidPatientID("Zoë")) { try MicrolifeCommand.setPatientID("Zoë") }
        #expect(throws: Never.self) { try MicrolifeCommand.setPatientID(String(repeating: "A", count: 20)) }
    }
}
