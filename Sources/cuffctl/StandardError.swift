#if canImport(Glibc)
import Glibc
#endif

/// Writes one line to standard error, unbuffered.
func printToStandardError(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    _ = write(STDERR_FILENO, &bytes, bytes.count)
}
