/// A vendor protocol a cuff speaks besides the standard services.
public enum VendorProtocol: String, Decodable, Sendable, Equatable {
    /// QardioArm's start/cancel control point inside 0x1810 (docs/reference/GATT-HEALTH.md §12, reverse-engineered).
    case qardioArm
}
