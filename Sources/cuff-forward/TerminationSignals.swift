import Dispatch
import Glibc

/// SIGTERM (systemd's stop) and SIGINT end cuff-forward at once, with status 0: every moment is a safe one to stop
/// at (docs/forwarding.md, "The anchor rule"), so there is nothing to finish first.
///
/// MainLoop blocks the asynchronous signals on the main thread, as `dispatch_main` does, and libdispatch's threads
/// block them too, so their default action would never come: they are ignored instead and read by a dispatch signal
/// source, which libdispatch takes from a signalfd (docs/architecture.md, "One thread for Swift concurrency").
enum TerminationSignals {
    /// The sources; they must live as long as the program.
    static func exitOnDelivery() -> [any DispatchSourceSignal] {
        let queue = DispatchQueue(label: "cuff-forward.signals")
        return [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { exit(0) }
            source.resume()
            return source
        }
    }
}
