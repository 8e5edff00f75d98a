import Foundation

extension ChildProcess {
    /// Waits for the child to exit; one that has not within `timeout` is sent SIGKILL — to `target` if given (`-pid`:
    /// its process group) — so that a hang ends, as a failure the caller sees in the status: 128 + 9.
    @discardableResult
    public func waitForExit(killingAfter timeout: TimeInterval, target: pid_t? = nil) -> Int32 {
        let killer = DispatchSource.makeTimerSource()
        killer.schedule(deadline: .now() + timeout)
        killer.setEventHandler { [pid] in kill(target ?? pid, SIGKILL) }
        killer.resume()
        defer { killer.cancel() }
        return waitForExit()
    }
}
