import DBusTestSupport
import Foundation

/// cuff-forward's status, as `cuffctl forward status --json` tells it (docs/forwarding.md, "Status"), and waits on it.
/// cuff-forward replaces its status file at each change of state, after each acknowledged page and at each failed
/// attempt, so what the status says changes only with an event in the file's folder.
extension Stack {
    /// `cuffctl forward status --json --state STATUS` as root, parsed.
    func forwardStatus(_ status: String) async throws -> [String: Any] {
        let outcome = try await cuffctl(["forward", "status", "--json", "--state", status])
        guard outcome.status == 0 else { throw TestFailure("forward status exited \(outcome.status): \(outcome.error)") }
        return try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any] ?? [:]
    }

    /// Waits until the status in the file `status` satisfies `condition` (not yet written counts as empty); returns it.
    @discardableResult
    func waitForForwardStatus(_ status: String, _ what: String, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var seen: [String: Any] = [:]
        try await FolderWatch.wait(what, in: [(status as NSString).deletingLastPathComponent], detail: "status: \(seen)") {
            seen = FileManager.default.fileExists(atPath: status) ? try await forwardStatus(status) : [:]
            return condition(seen)
        }
        return seen
    }

    /// Waits until cuff-forward, waiting for a server, has failed more than once since it began to: its status's
    /// `lastErrorAt` is later than `since`, the time of the first failure.
    func waitUntilRetried(status: String) async throws {
        try await waitForForwardStatus(status, "a failed attempt again") { seen in
            (seen["state"] as? String)?.hasPrefix("waiting") == true && (seen["lastErrorAt"] as? Double ?? 0) > (seen["since"] as? Double ?? .infinity)
        }
    }

    /// Waits until cuff-forward has failed `count` attempts, as `lastErrorAt` in the file `status` tells (each failed
    /// attempt sets it); returns the times seen (Unix seconds), oldest first. Two attempts between two looks show as
    /// one: the times are of `count` attempts, not necessarily consecutive ones.
    @discardableResult
    func failedAttempts(_ count: Int, status: String) async throws -> [Double] {
        var times: [Double] = []
        try await waitForForwardStatus(status, "\(count) failed attempts") { seen in
            if let at = seen["lastErrorAt"] as? Double, at != times.last { times.append(at) }
            return times.count >= count
        }
        return times
    }
}
