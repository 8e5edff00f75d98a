/// A command frame a host writes to a Microlife cuff (docs/reference/GATT-HEALTH.md §13.12; joergmlpts/
/// blood-pressure-monitor `bpm_bt.py`): `4D FF`, a big-endian length counting every byte after itself, the
/// command byte, its parameters, and a checksum, the low 8 bits of the sum of every byte before it.
public struct MicrolifeCommand: Hashable, Sendable {
    public var code: UInt8
    public var parameters: [UInt8]

    public init(code: UInt8, parameters: [UInt8] = []) {
        self.code = code
        self.parameters = parameters
    }

    /// The command bytes (§13.12's list).
    public enum Code {
        public static let readings: UInt8 = 0x00
        public static let disconnect: UInt8 = 0x04
        public static let patientIDs: UInt8 = 0x05
        public static let setPatientID: UInt8 = 0x06
        public static let setDateTime: UInt8 = 0x0D
    }

    /// The characters a patient ID holds at most.
    public static let patientIDLength = 20

    /// *Get readings*: its parameters `00 00 00 00 00 00 FD` are as the source sends them, their meaning not given.
    public static let readings = MicrolifeCommand(code: Code.readings, parameters: [0, 0, 0, 0, 0, 0, 0xFD])
    /// *Get patient IDs*.
    public static let patientIDs = MicrolifeCommand(code: Code.patientIDs)
    /// *Disconnect*: the cuff is not expected to answer.
    public static let disconnect = MicrolifeCommand(code: Code.disconnect)

    /// *Set date and time* to `time`, the host's local wall clock: year − 2000, month, day, hours, minutes,
    /// seconds, a plain binary byte each.
    public static func setDateTime(_ time: DateTime) throws(MicrolifeError) -> MicrolifeCommand {
        guard MicrolifeService.clockYears.contains(time.year) else { throw .yearOutOfRange(time.year) }
        return MicrolifeCommand(
            code: Code.setDateTime,
            parameters: [UInt8(time.year - 2000), time.month, time.day, time.hours, time.minutes, time.seconds])
    }

    /// *Set patient ID* to `id`, zero-padded to 20 bytes between the fixed bytes `FD` and `D8` the source sends.
    public static func setPatientID(_ id: String) throws(MicrolifeError) -> MicrolifeCommand {
        let bytes = Array(id.utf8)
        guard bytes.count <= patientIDLength, bytes.allSatisfy({ (0x20 ... 0x7E).contains($0) }) else {
            throw .invalidPatientID(id)
        }
        return MicrolifeCommand(code: Code.setPatientID, parameters: [0xFD] + MicrolifePatientIDs.field(id) + [0xD8])
    }

    /// The frame, checksum included.
    public func encoded() -> [UInt8] {
        MicrolifeFrame.encoded(start: MicrolifeFrame.commandStart, [code] + parameters)
    }

    /// The frame as consecutive writes of at most ``MicrolifeService/writeSize`` bytes.
    public func writes() -> [[UInt8]] {
        encoded().pieces(of: MicrolifeService.writeSize)
    }
}
