/// A text value bound to statements without SQLite copying it (`SQLITE_STATIC`): its UTF-8 bytes
/// are copied once into memory of their own, which stays put for the object's lifetime.
///
/// Metadata JSON is shared by runs of objects (a batch from one device, a reading's members);
/// binding it with `SQLITE_TRANSIENT` made SQLite allocate, copy and free it for every row
/// (callgrind: ≈ 1 500 instructions per inserted row). A binding outlives the value only as a
/// stale pointer that SQLite never reads: every run of the inserter's statements binds each
/// parameter afresh (``SQLiteSampleInserter``).
final class SQLiteText {
    /// The text itself (for statements bound through GRDB).
    let string: String
    /// The UTF-8 bytes (no terminating NUL), valid while `self` is alive.
    let utf8: UnsafeMutableBufferPointer<UInt8>

    init(_ string: String) {
        self.string = string
        utf8 = .allocate(capacity: string.utf8.count)
        _ = utf8.initialize(from: string.utf8)
    }

    deinit { utf8.deallocate() }
}
