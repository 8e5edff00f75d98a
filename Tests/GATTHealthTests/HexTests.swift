import GATTHealth
import Testing

@Suite("Hex text")
struct HexTests {
    @Test("Bytes are two upper-case digits each, in the spelling cuffctl decode reads (DecodeCommandTests)")
    func bytes() {
        #expect(Hex.bytes(TestVector.bytes("BPM-R1")) == "16 7C 00 56 00 61 00 E8 07 06 0F 11 11 1B 33 00 00 00")
        #expect(Hex.bytes([0x00, 0x0A], separator: "") == "000A")
        #expect(Hex.bytes([0xC4, 0xF3], separator: ":") == "C4:F3")
        #expect(Hex.bytes([]) == "")
    }

    @Test("Numbers keep as many digits as their width holds")
    func digits() {
        #expect(Hex.digits(UInt8(0x0A)) == "0A")
        #expect(Hex.digits(UInt16(0x2A)) == "002A")
        #expect(Hex.digits(UInt64(0x0C0B_0A05_0403_0201)) == "0C0B0A0504030201")
    }
}
