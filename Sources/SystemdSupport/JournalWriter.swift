import CLinux

#if canImport(Glibc)
import Glibc
#endif

/// Sends entries to the journal's native socket (docs/reference/BLUEZ-DBUS.md §17). An entry too large for one
/// datagram (`EMSGSIZE`) goes in a sealed memfd passed with `SCM_RIGHTS`, as the protocol describes.
public final class JournalWriter: Sendable {
    /// The journal's native socket on every systemd system.
    public static let defaultSocketPath = "/run/systemd/journal/socket"

    private let socket: UnixDatagramSocket

    /// A writer for the socket at `path`, raising the socket's send buffer to `sendBufferSize` first
    /// (the protocol's advice, so that most entries fit one datagram); nil when no socket can be made.
    public init?(socketPath: String = JournalWriter.defaultSocketPath, sendBufferSize: Int32 = 8 << 20) {
        guard let socket = UnixDatagramSocket(destination: socketPath) else { return nil }
        socket.raiseSendBuffer(to: sendBufferSize)
        self.socket = socket
    }

    /// Sends one entry; returns 0 or the errno that stopped it.
    @discardableResult
    func write(_ entry: JournalEntry) -> Int32 {
        let datagram = entry.serialized
        let result = socket.send(datagram)
        guard result == EMSGSIZE || result == ENOBUFS else { return result }
        return sendThroughMemfd(datagram)
    }

    private func sendThroughMemfd(_ datagram: [UInt8]) -> Int32 {
        let descriptor = datagram.withUnsafeBytes { cuffd_sealed_memfd("journal-entry", $0.baseAddress, $0.count) }
        guard descriptor >= 0 else { return -descriptor }
        defer { close(descriptor) }
        return socket.send([], passing: descriptor)
    }
}
