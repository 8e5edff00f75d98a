import Foundation

extension DatagramReceiver {
    /// Waits for READY=1 (sd_notify(3)) from a server started with `NOTIFY_SOCKET` naming this socket — the server's
    /// own word that it is ready, which systemd waits for too (`Type=notify`). Throws after `timeout` without it,
    /// with `log()`, the server's log, saying why.
    public func waitForReadiness(of server: String, within timeout: Duration, log: () -> String) throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, let message = receive(timeout: left) else { throw TestFailure("\(server) sent no READY=1 within \(timeout): \(log())") }
            if String(decoding: message.bytes, as: UTF8.self).split(separator: "\n").contains("READY=1") { return }
        }
    }
}
