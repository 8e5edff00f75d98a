#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Foundation

/// Where `cuffctl export` writes (docs/export.md, "Output"): standard output, or `--output FILE` — a
/// temporary file beside FILE (mode 0600) that is synced and renamed over FILE only once complete, and
/// removed on any failure, so FILE is either the whole export or untouched.
final class ExportDestination {
    private let descriptor: Int32
    /// The file to rename the temporary one to; nil for standard output.
    private let target: String?
    private var temporary: String?
    private var isOpen = true

    /// Standard output.
    init() {
        descriptor = STDOUT_FILENO
        target = nil
    }

    /// A temporary file beside `path`, to become `path` on ``commit()``.
    init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        var template = Array(url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).XXXXXX").path.utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw Self.failure("cannot create a file beside \(path)") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fchmod(descriptor, 0o600) == 0 else {
            close(descriptor)
            unlink(temporary)
            throw Self.failure("cannot set the mode of \(temporary)")
        }
        self.descriptor = descriptor
        self.target = path
        self.temporary = temporary
    }

    deinit { discard() }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Writes all of `output`, in as many `write(2)` calls as the kernel needs.
    func write(_ output: [UInt8]) throws {
        var bytes = output[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Self.failure("cannot write \(target ?? "to standard output")", status: target == nil ? ExitStatus.ioError : ExitStatus.cannotCreate) }
            bytes = bytes.dropFirst(count)
        }
    }

    /// Makes the export FILE: synced to disk, renamed over FILE, the rename synced with its directory.
    func commit() throws {
        guard let target, let temporary else { return }
        let synced = fsync(descriptor) == 0
        isOpen = false
        guard close(descriptor) == 0, synced else { throw Self.failure("cannot write \(target)") }
        guard rename(temporary, target) == 0 else { throw Self.failure("cannot replace \(target)") }
        self.temporary = nil
        let directory = open(URL(fileURLWithPath: target).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// Removes the temporary file of an export that did not complete.
    func discard() {
        guard let temporary else { return }
        if isOpen { close(descriptor) }
        isOpen = false
        unlink(temporary)
        self.temporary = nil
    }

    private static func failure(_ message: String, status: ExitCode = ExitStatus.cannotCreate) -> CuffctlFailure {
        CuffctlFailure(message: "\(message): \(String(cString: strerror(errno)))", status: status)
    }
}
