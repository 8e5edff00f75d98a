/// A vendor protocol a cuff speaks besides the standard services.
public enum VendorProtocol: String, Decodable, Sendable, Equatable {
    /// QardioArm's start/cancel control point inside 0x1810 (docs/reference/GATT-HEALTH.md §12, reverse-engineered).
    case qardioArm
    /// Omron's own service with its pairing key and memory reads (docs/omron.md); the cuff's `omron` object
    /// says which model and what its memory holds.
    case omron
    /// Omron's newer service 0xFE4A (docs/omron.md §1–§3): whole packets on one channel each way, a token unlock
    /// on the models that need one; the cuff's `omron` object names a 0xFE4A model and its memory.
    case omronModern
    /// A&D's own service beside 0x1810 (docs/reference/GATT-HEALTH.md §13.8): its command characteristic takes the
    /// disconnect request; the cuff's `aAndD` object says whether it advertises in cooperation mode.
    case aAndD
    /// A Microlife cuff's own service 0xFFF0 (docs/reference/GATT-HEALTH.md §13.12): commands written to 0xFFF2, answers
    /// notified on 0xFFF1; the cuff's `microlife` object holds its users and memory.
    case microlife
}
