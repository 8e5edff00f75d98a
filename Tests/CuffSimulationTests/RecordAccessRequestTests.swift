@testable import CuffSimulation
import GATTHealth
import Testing

/// What the emulated BPS 1.1 cuff makes of each RACP write, without a bus (docs/reference/GATT-HEALTH.md §8).
@Suite("cuff-sim: RACP requests")
struct RecordAccessRequestTests {
    static let records = [3, 7, 8, 12].map { RecordSpec(sequence: $0, value: HexValue(bytes: [UInt8($0)])) }

    static func sequences(_ bytes: [UInt8]) -> [UInt16]? {
        guard case .report(let selected) = RecordAccessRequest(bytes, records: records).action else { return nil }
        return selected.map(\.sequence)
    }

    @Test("Report stored records: all, ≤, ≥, within range (sequence number filter), first, last", arguments: [
        ([0x01, 0x01], [3, 7, 8, 12]),
        ([0x01, 0x02, 0x01, 0x07, 0x00], [3, 7]),
        ([0x01, 0x03, 0x01, 0x08, 0x00], [8, 12]),
        ([0x01, 0x04, 0x01, 0x04, 0x00, 0x0B, 0x00], [7, 8]),
        ([0x01, 0x04, 0x01, 0x07, 0x00, 0x07, 0x00], [7]),
        ([0x01, 0x05], [3]),
        ([0x01, 0x06], [12]),
    ] as [([UInt8], [UInt16])])
    func reports(_ request: [UInt8], _ expected: [UInt16]) {
        #expect(Self.sequences(request) == expected)
        #expect(RecordAccessRequest(request, records: Self.records).response == [0x06, 0x00, 0x01, 0x01])
    }

    @Test("Each refusal answers with the Response Code for its request op code", arguments: [
        ([0x01, 0x03, 0x01, 0x0D, 0x00], [0x06, 0x00, 0x01, 0x06]),  // ≥ 13: no records found
        ([0x09, 0x01], [0x06, 0x00, 0x09, 0x02]),  // op code not supported
        ([0x06, 0x00, 0x01, 0x01], [0x06, 0x00, 0x06, 0x02]),  // a response written back
        ([0x10, 0x00], [0x06, 0x00, 0x10, 0x02]),  // Omron's extension on a standard cuff
        ([], [0x06, 0x00, 0x00, 0x02]),
        ([0x01], [0x06, 0x00, 0x01, 0x03]),  // no operator
        ([0x01, 0x00], [0x06, 0x00, 0x01, 0x03]),  // Null operator
        ([0x03, 0x01], [0x06, 0x00, 0x03, 0x03]),  // Abort needs Null
        ([0x01, 0x07], [0x06, 0x00, 0x01, 0x04]),  // operator not supported
        ([0x01, 0x03, 0x01, 0x07], [0x06, 0x00, 0x01, 0x05]),  // operand cut short
        ([0x01, 0x01, 0x00], [0x06, 0x00, 0x01, 0x05]),  // bytes after the operand
        ([0x01, 0x04, 0x01, 0x0B, 0x00, 0x04, 0x00], [0x06, 0x00, 0x01, 0x05]),  // minimum > maximum
        ([0x01, 0x03, 0x02, 0x00, 0x00, 0x00, 0x00], [0x06, 0x00, 0x01, 0x09]),  // User Facing Time filter
        ([0x01, 0x03, 0x04, 0x07, 0x00], [0x06, 0x00, 0x01, 0x09]),  // Omron's sequence filter
        ([0x01, 0x03, 0x05, 0x07, 0x00], [0x06, 0x00, 0x01, 0x09]),  // unknown filter type
        ([0x02, 0x02, 0x01, 0x02, 0x00], [0x06, 0x00, 0x02, 0x06]),  // delete ≤ 2: none
    ] as [([UInt8], [UInt8])])
    func refusals(_ request: [UInt8], _ response: [UInt8]) {
        let outcome = RecordAccessRequest(request, records: Self.records)
        guard case .respond = outcome.action else {
            Issue.record("\(request) was taken: \(outcome.action)")
            return
        }
        #expect(outcome.response == response)
    }

    @Test func countDeleteAndAbort() {
        let count = RecordAccessRequest([0x04, 0x03, 0x01, 0x07, 0x00], records: Self.records)
        #expect(count.action == .count(3))
        #expect(count.response == [0x05, 0x00, 0x03, 0x00])
        #expect(RecordAccessRequest([0x04, 0x03, 0x01, 0x0D, 0x00], records: Self.records).response == [0x05, 0x00, 0x00, 0x00])
        let delete = RecordAccessRequest([0x02, 0x04, 0x01, 0x07, 0x00, 0x08, 0x00], records: Self.records)
        #expect(delete.action == .delete([7, 8]))
        #expect(delete.response == [0x06, 0x00, 0x02, 0x01])
        let abort = RecordAccessRequest([0x03, 0x00], records: [])
        #expect(abort.action == .abort)
        #expect(abort.response == [0x06, 0x00, 0x03, 0x01])
    }

    @Test func theE2ECRCIsCRC16MCRF4XX() {
        // The CRC RevEng catalogue's check value for CRC-16/MCRF4XX.
        #expect(RecordCRC.mcrf4xx(Array("123456789".utf8)) == 0x6F91)
        #expect(RecordCRC.appended(to: Array("123456789".utf8)).suffix(2) == [0x91, 0x6F])
    }
}
