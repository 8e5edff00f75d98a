import GATTHealth
import Testing

@Suite("QardioArm control point (reverse-engineered, docs/reference/GATT-HEALTH.md §12)")
struct QardioArmControlPointTests {
    @Test func commandsAreTheWritesTheVendorAppSends() throws {
        // "Reversing the QardioArm": the vendor app writes 0xf101 to start and 0xf102 to cancel.
        #expect(QardioArmControlPoint.Command.start.encoded() == [0xF1, 0x01])
        #expect(QardioArmControlPoint.Command.cancel.encoded() == [0xF1, 0x02])
        for command in QardioArmControlPoint.Command.allCases {
            #expect(try QardioArmControlPoint.Command(decoding: command.encoded()) == command)
        }
    }

    @Test func phasesFollowQcardioCli() throws {
        #expect(QardioArmControlPoint.Phase.inflating.encoded() == [0xF2, 0x01])
        #expect(try QardioArmControlPoint.Phase(decoding: [0xF2, 0x04]) == .completed)
        #expect(try QardioArmControlPoint.Phase(decoding: [0xF2, 0x05]) == .aborted)
        #expect(QardioArmControlPoint.Phase.allCases.map { $0.encoded()[1] } == [1, 2, 3, 4, 5, 6])
    }

    @Test func otherFramesAreRefusedWithTheReason() {
        #expect(throws: QardioArmControlPoint.DecodingError.unknownCode(prefix: 0xF1, code: 0x03)) {
            try QardioArmControlPoint.Command(decoding: [0xF1, 0x03])
        }
        #expect(throws: QardioArmControlPoint.DecodingError.prefix(expected: 0xF1, actual: 0xF2)) {
            try QardioArmControlPoint.Command(decoding: [0xF2, 0x01])
        }
        #expect(throws: QardioArmControlPoint.DecodingError.length(3)) {
            try QardioArmControlPoint.Command(decoding: [0xF1, 0x01, 0x00])
        }
        #expect(throws: QardioArmControlPoint.DecodingError.length(0)) {
            try QardioArmControlPoint.Phase(decoding: [UInt8]())
        }
        #expect(QardioArmControlPoint.DecodingError.unknownCode(prefix: 0xF2, code: 0x07).description
            == "QardioArm control point: unknown code 0x07 after 0xF2")
    }

    @Test func theUUIDIsTheOneBlueZExportsInLowerCase() {
        #expect(QardioArmControlPoint.uuid == "583CB5B3-875D-40ED-9098-C39EB0C1983D".lowercased())
    }
}
