#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import DurableFiles

/// Where `cuffctl export` and `cuffctl report` write (docs/export.md, "Output"): standard output, or `--output FILE`
/// — replaced durably (``FileReplacement``: a temporary file `.FILE.XXXXXX` beside FILE, mode 0600, synced and
/// renamed over FILE only once complete, and removed on any failure), so FILE is either the whole export or untouched.
final class ExportDestination {
    /// The replacement of FILE under way; nil for standard output.
    private let replacement: FileReplacement?

    /// Standard output.
    init() {
        replacement = nil
    }

    /// A temporary file beside `path`, to become `path` on ``commit()``.
    init(path: String) throws {
        do {
            replacement = try FileReplacement(replacing: DurableFile(path: path, mode: 0o600))
        } catch {
            throw Self.failure(error)
        }
    }

    deinit { discard() }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Writes all of `output`, in as many `write(2)` calls as the kernel needs.
    func write(_ output: [UInt8]) throws {
        guard let replacement else { return try writeToStandardOutput(output) }
        do {
            try replacement.write(output)
        } catch {
            throw Self.failure(error)
        }
    }

    /// Makes the export FILE: synced to disk, renamed over FILE, the rename synced with its folder.
    func commit() throws {
        do {
            try replacement?.commit()
        } catch {
            throw Self.failure(error)
        }
    }

    /// Removes the temporary file of an export that did not complete.
    func discard() {
        replacement?.discard()
    }

    private func writeToStandardOutput(_ output: [UInt8]) throws {
        var bytes = output[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                throw CuffctlFailure(message: "cannot write to standard output: \(String(cString: strerror(errno)))", status: ExitStatus.ioError)
            }
            bytes = bytes.dropFirst(count)
        }
    }

    private static func failure(_ error: DurableFileError) -> CuffctlFailure {
        CuffctlFailure(message: error.description, status: ExitStatus.cannotCreate)
    }
}
