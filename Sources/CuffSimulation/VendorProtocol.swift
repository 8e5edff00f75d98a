/// A vendor protocol a cuff speaks besides the standard services.
public enum VendorProtocol: String, Decodable, Sendable, Equatable {
    /// QardioArm's start/cancel control point inside 0x1810 (docs/reference/GATT-HEALTH.md §12, reverse-engineered).
    case qardioArm
    /// Omron's own service with its pairing key and memory reads (docs/omron.md); the cuff's `omron` object
    /// says which model and what its memory holds.
    case omron
    /// Omron's newer service 0xFE4A (docs/omron.md §7), advertised only: cuffd refuses to pair such a cuff, so
    /// nothing behind it is played.
    case omronModern
}
