/// Joins the notifications of a Microlife cuff into one answer frame (docs/reference/GATT-HEALTH.md §13.12;
/// joergmlpts/blood-pressure-monitor `bpm_bt.py`, `characteristic_notification`): once the first four bytes
/// give the length, the frame is whole when that many bytes have come.
public struct MicrolifeFrameAssembler: Sendable {
    private var bytes: [UInt8] = []

    public init() {}

    /// Takes one notification; returns the frame's payload once whole (or its decoding error), nil while bytes
    /// are missing. A frame that does not start `4D 3A`, or a notification that goes past the announced length, is
    /// an error. A whole frame, good or bad, clears what was collected.
    public mutating func append(_ notification: [UInt8]) -> Result<[UInt8], MicrolifeError>? {
        bytes += notification
        let badStart = bytes.count >= 2 && bytes[0 ..< 2] != [0x4D, 0x3A]
        guard badStart || MicrolifeFrame.announcedLength(bytes).map({ bytes.count >= $0 }) == true else { return nil }
        defer { reset() }
        do {
            return .success(try MicrolifeFrame.payload(decoding: bytes))
        } catch {
            return .failure(error)
        }
    }

    /// Forgets bytes collected so far (a new command).
    public mutating func reset() {
        bytes = []
    }
}
