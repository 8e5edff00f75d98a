import DBusTestSupport
import Foundation

/// The write end of a pipe for a process's standard output and error: a thread of the test's appends what comes to
/// `file` and counts a change of `logged`, and again at the pipe's end, once the process (and any child it passed the
/// pipe to) has exited. A test waits on that for a line its processes log, without watching the file system (inotify's
/// instances run short under the parallel suite's many dbus-daemons: docs/testing.md). The caller closes the
/// descriptor once the process has started. `ended`, when given, opens at the pipe's end, once everything the process
/// wrote is in the file.
func logPipe(appendingTo file: URL, counting logged: Observed<Int>, ended: Gate? = nil) throws -> Int32 {
    let log = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
    guard log >= 0 else { throw TestFailure("cannot create \(file.path)") }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
        close(log)
        throw TestFailure("pipe: \(String(cString: strerror(errno)))")
    }
    // Close-on-exec: only the process it is handed to (dup2 clears the flag there) holds the write end, so that the
    // pipe ends with it.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let reader = ends[0]
    Thread.detachNewThread {
        defer {
            close(reader)
            close(log)
            ended?.open()
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(reader, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count > 0 { _ = writeAll(buffer[..<count], to: log) }
            logged.update { $0 += 1 }
            if count <= 0 { return }
        }
    }
    return ends[1]
}

/// Writes all of `bytes` to `descriptor`; false when it could not.
func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Bool {
    var written = bytes.startIndex
    while written < bytes.endIndex {
        let more = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard more > 0 else { return false }
        written += more
    }
    return true
}
