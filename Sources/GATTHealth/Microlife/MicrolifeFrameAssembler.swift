/// Joins the notifications of a Microlife cuff into one answer frame (docs/reference/GATT-HEALTH.md §13.12;
/// joergmlpts/blood-pressure-monitor `bpm_bt.py`, `characteristic_notification`): once the first four bytes
/// give the length, the frame is whole when that many bytes have come. An emulated cuff joins the host's writes alike.
public struct MicrolifeFrameAssembler: Sendable {
    private var bytes: [UInt8] = []
    private let start: [UInt8]

    /// Joins frames that begin with `start`: the cuff's answers (``MicrolifeFrame/answerStart``), unless told.
    public init(start: [UInt8] = MicrolifeFrame.answerStart) {
        self.start = start
    }

    /// Takes one notification (or write); returns the frame's payload once whole (or its decoding error), nil while bytes
    /// are missing. A frame that does not begin with its start, or a notification that goes past the announced length, is
    /// an error. A whole frame, good or bad, clears what was collected.
    public mutating func append(_ notification: [UInt8]) -> Result<[UInt8], MicrolifeError>? {
        bytes += notification
        let badStart = bytes.count >= start.count && !bytes.starts(with: start)
        guard badStart || MicrolifeFrame.announcedLength(bytes).map({ bytes.count >= $0 }) == true else { return nil }
        defer { reset() }
        do {
            return .success(try MicrolifeFrame.payload(decoding: bytes, start: start))
        } catch {
            return .failure(error)
        }
    }

    /// Forgets bytes collected so far (a new command).
    public mutating func reset() {
        bytes = []
    }
}
