import DBusTestSupport
import Foundation

/// A TCP relay on 127.0.0.1 in front of a server, for one connection: it passes everything both ways until ``hold()``;
/// from then on what the client sends goes no further, as if the server had stopped reading — a PUBLISH held so is one
/// no PUBACK can answer —, and ``waitUntilHeld()`` returns once something has been held: the client has sent it.
/// When either end closes, the relay closes the other, so a client killed is, to the server, a connection lost.
final class HoldingRelay: @unchecked Sendable {
    let port: Int
    private let listening: Int32
    private let lock = NSLock()
    private var holding = false
    /// The bytes held so far.
    private let held = Observed(0)

    /// Listens at once; the connection it accepts is relayed to `target` on 127.0.0.1.
    init(to target: Int) throws {
        (listening, port) = try boundLoopbackSocket()
        guard listen(listening, 1) == 0 else {
            close(listening)
            throw TestFailure("the relay cannot listen: \(String(cString: strerror(errno)))")
        }
        Thread.detachNewThread { [self] in relay(to: target) }
    }

    /// Holds what the client sends from now on.
    func hold() { lock.withLock { holding = true } }

    /// Returns once the client has sent something since ``hold()``.
    func waitUntilHeld() async throws {
        try await held.wait(for: "something sent through the relay") { $0 > 0 ? () : nil }
    }

    private func relay(to target: Int) {
        let client = accept(listening, nil, nil)
        close(listening)
        guard client >= 0 else { return }
        defer { close(client) }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(target).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return }
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            pass(from: server, to: client, holdable: false)
            answered.signal()
        }
        pass(from: client, to: server, holdable: true)
        answered.wait()
    }

    /// Copies until `source` ends, then ends both directions of `sink`, which ends the other copy too.
    private func pass(from source: Int32, to sink: Int32, holdable: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { break }
            let kept = holdable && lock.withLock { holding }
            if kept { held.update { $0 += count } }
            guard kept || writeAll(buffer[..<count], to: sink) else { break }
        }
        shutdown(sink, Int32(SHUT_RDWR))
        shutdown(source, Int32(SHUT_RDWR))
    }
}
