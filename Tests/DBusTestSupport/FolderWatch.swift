import Foundation

/// Waits for a condition over files — a line in a log, a state file's content, a row PostgreSQL committed (its
/// write-ahead log is a file too) —, woken by inotify(7) whenever a file in one of the watched folders changes,
/// not by a clock. A process that exits closes its log, which wakes the wait too (`IN_CLOSE_WRITE`). The deadline
/// only turns a hang into a failure.
///
/// One inotify instance serves the whole test process: a user's instances are few (128 by default), and every
/// private bus's dbus-daemon holds one too — the parallel suite's buses take nearly all, so only the suites that
/// start servers, which run on their own (scripts/test), watch folders; the others follow the logs of their
/// processes through pipes. A thread of its own reads the instance and counts each watch's events; a
/// wait notes the count of its watches before it checks its condition, so that nothing that happens in between is
/// missed, and sleeps until the count moves.
public final class FolderWatch: @unchecked Sendable {
    private let descriptor: Int32
    private let condition = NSCondition()
    /// Events seen so far, per watch descriptor; under -1, the times the kernel's queue overflowed and events were
    /// lost (`IN_Q_OVERFLOW`), which count as a change of every watch.
    private var events: [Int32: Int] = [:]
    private static let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE)
    private static let shared = Result { try FolderWatch() }

    private init() throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else {
            throw TestFailure(
                "inotify_init1: \(String(cString: strerror(errno))) — with EMFILE, the user's inotify instances "
                    + "(fs.inotify.max_user_instances) are taken, as by the dbus-daemons of many private buses at once: "
                    + "scripts/test runs the suites that watch folders on their own")
        }
        Thread.detachNewThread { [self] in readEvents() }
    }

    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { continue }
            condition.withLock {
                var offset = 0
                // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
                while offset + 16 <= count {
                    let watch = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Int32.self) }
                    let length = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) }
                    events[watch, default: 0] += 1
                    offset += 16 + Int(length)
                }
                condition.broadcast()
            }
        }
    }

    /// Watches each folder, or while it does not exist yet, the nearest folder above it that does, whose change (the
    /// folder made) wakes the wait, which then watches the folder itself. Watching a folder again is harmless.
    private func watch(_ folders: [String]) -> Set<Int32> {
        Set(folders.map { folder in
            var path = folder
            var watch = inotify_add_watch(descriptor, path, Self.mask)
            while watch < 0, errno == ENOENT, path != "/" {
                path = (path as NSString).deletingLastPathComponent
                watch = inotify_add_watch(descriptor, path, Self.mask)
            }
            return watch
        })
    }

    /// The events of `watches` so far; called with `condition` locked.
    private func changes(_ watches: Set<Int32>) -> Int {
        watches.union([-1]).reduce(0) { $0 + events[$1, default: 0] }
    }

    /// Blocks until the watches have seen more than `seen` events, or until `deadline`.
    private func waitForChange(_ watches: Set<Int32>, after seen: Int, before deadline: Date) {
        condition.withLock {
            while changes(watches) == seen, condition.wait(until: deadline) {}
        }
    }

    /// Returns once `condition` holds, checked now and after each change of a file in `folders`; throws after
    /// `timeout` without it, saying `what` was waited for and, from `detail`, what was seen instead.
    public static func wait(
        _ what: String, in folders: [String], within timeout: Duration = testDeadline, detail: @autoclosure () -> String = "",
        until condition: () async throws -> Bool
    ) async throws {
        let instance = try shared.get()
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds))
        while true {
            let watches = instance.watch(folders)
            let seen = instance.condition.withLock { instance.changes(watches) }
            if try await condition() { return }
            guard Date() < deadline else { throw TestFailure("\(what): not within \(timeout)\n\(detail())") }
            try await offCooperativePool { instance.waitForChange(watches, after: seen, before: deadline) }
        }
    }
}
