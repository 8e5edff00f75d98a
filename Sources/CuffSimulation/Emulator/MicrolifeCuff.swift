import GATTHealth

/// An emulated Microlife cuff's side of its protocol (docs/reference/GATT-HEALTH.md §13.12): it joins the host's writes
/// into command frames and answers each from its memory (``MicrolifeSpec``). Shared by cuff-sim's bluetoothd and the
/// Gateway tests' in-process central.
public struct MicrolifeCuff: Sendable {
    /// What one write did.
    public struct Reaction: Sendable {
        /// The answer frame in notifications of at most 20 bytes (the default ATT MTU's), none while a command is incomplete.
        public var notifications: [[UInt8]] = []
        /// What the cuff did, for the log.
        public var log: String?
        /// The host sent *disconnect*: the cuff ends the link.
        public var disconnects = false
    }

    /// The clock as the host last set it (seconds included); nil before *set date and time*.
    public private(set) var clock: DateTime?
    public private(set) var ids: MicrolifePatientIDs
    private let readings: [MicrolifeReading]
    private var assembler = MicrolifeFrameAssembler(start: MicrolifeFrame.commandStart)

    public init(_ spec: MicrolifeSpec) {
        ids = spec.ids
        readings = spec.readings
    }

    /// Takes one write to 0xFFF2.
    public mutating func write(_ bytes: [UInt8]) -> Reaction {
        switch assembler.append(bytes) {
        case nil: return Reaction()
        case .failure(let error)?: return Reaction(log: "Microlife command refused, no answer: \(error)")
        case .success(let body)?: return answer(code: body[0], Array(body.dropFirst()))
        }
    }

    private mutating func answer(code: UInt8, _ parameters: [UInt8]) -> Reaction {
        func answered(_ payload: [UInt8], _ log: String) -> Reaction {
            Reaction(notifications: MicrolifeFrame.answer(payload).pieces(of: MicrolifeService.writeSize), log: log)
        }
        switch code {
        case MicrolifeCommand.Code.setDateTime where parameters.count == 6:
            let time = DateTime(
                year: 2000 + UInt16(parameters[0]), month: parameters[1], day: parameters[2], hours: parameters[3], minutes: parameters[4],
                seconds: parameters[5])
            clock = time
            return answered(MicrolifeFrame.acknowledgement, "Microlife clock set to \(time.isoString ?? "an impossible time")")
        case MicrolifeCommand.Code.patientIDs:
            return answered(ids.encoded(), "Microlife patient IDs sent (user \(ids.selectedUser) selected)")
        case MicrolifeCommand.Code.setPatientID where parameters.count == MicrolifeCommand.patientIDLength + 2:
            let id = String(decoding: parameters[1 ... MicrolifeCommand.patientIDLength].filter { $0 != 0 }, as: UTF8.self)
            if ids.selectedUser == 1 { ids.user1 = id } else { ids.user2 = id }
            return answered(MicrolifeFrame.acknowledgement, "Microlife patient ID of user \(ids.selectedUser) set to \"\(id)\"")
        case MicrolifeCommand.Code.readings:
            return answered(MicrolifeReading.answer(readings), "Microlife memory sent: \(readings.count) reading(s)")
        case MicrolifeCommand.Code.disconnect:
            return Reaction(log: "Microlife disconnect: the cuff ends the link", disconnects: true)
        default:
            return Reaction(log: "Microlife command \(Hex.bytes([code] + parameters)) not understood, no answer")
        }
    }
}
