#if canImport(Glibc)
import Glibc
#endif

/// A unix file descriptor carried in a message (type `h`). The descriptor is owned: it is closed
/// when the last reference goes. libdbus duplicates a descriptor when it is appended to a message
/// and hands the receiver a duplicate of its own, so ownership never crosses the bus.
public final class UnixFileDescriptor: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    /// Takes ownership of `rawValue`.
    public init(owning rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Duplicates `rawValue` (close-on-exec); the caller keeps its own descriptor.
    public convenience init(duplicating rawValue: Int32) throws(DBusError) {
        let copy = fcntl(rawValue, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw DBusError(.failed, "cannot duplicate file descriptor \(rawValue): errno \(errno)")
        }
        self.init(owning: copy)
    }

    deinit {
        close(rawValue)
    }

    public var description: String { "fd \(rawValue)" }

    /// Descriptors compare by the open file they refer to (device and inode), so a descriptor
    /// that went across the bus and came back equals the original.
    public static func == (lhs: UnixFileDescriptor, rhs: UnixFileDescriptor) -> Bool {
        lhs.fileIdentity == rhs.fileIdentity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileIdentity?.device)
        hasher.combine(fileIdentity?.inode)
    }

    private var fileIdentity: (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard fstat(rawValue, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}

private func == (lhs: (device: UInt64, inode: UInt64)?, rhs: (device: UInt64, inode: UInt64)?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): true
    case let (l?, r?): l.device == r.device && l.inode == r.inode
    default: false
    }
}
