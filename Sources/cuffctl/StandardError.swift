#if canImport(Glibc)
import Glibc
#endif

/// Writes one line to standard error, unbuffered.
func printToStandardError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(STDERR_FILENO, &bytes, bytes.count)
}

/// Writes one line to standard output at once, for output that follows events (`--follow`, progress).
func printImmediately(_ line: String, newline: Bool = true) {
    var bytes = Array((line + (newline ? "\n" : "")).utf8)
    _ = write(STDOUT_FILENO, &bytes, bytes.count)
}

/// Whether standard output is a terminal (progress is redrawn in place there, printed line by line elsewhere).
var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
