#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import DurableFiles

/// Where `cuffctl export`, `report` and `capture` write (docs/export.md, "Output"): standard output (no `--output`, or
/// `--output -`); a regular file or a new path, replaced durably (``FileReplacement``: a temporary file `.FILE.XXXXXX`
/// beside FILE, mode 0600, synced and renamed over FILE only once complete, and removed on any failure), so FILE is
/// either the whole export or untouched; or a character device, written through (``OutputTarget`` says which, and
/// refuses the rest).
final class ExportDestination {
    private enum Sink {
        case standardOutput
        case replacement(FileReplacement)
        /// An open character device and its path; the descriptor is -1 once closed.
        case device(Int32, String)
    }

    private var sink: Sink

    /// Standard output.
    init() {
        sink = .standardOutput
    }

    /// What `--output path` names: refused with exit 73 unless ``OutputTarget`` allows it.
    init(path: String) throws {
        switch try OutputTarget.of(path) {
        case .standardOutput:
            sink = .standardOutput
        case .file(let path):
            do {
                sink = .replacement(try FileReplacement(replacing: DurableFile(path: path, mode: 0o600)))
            } catch {
                throw Self.failure(error)
            }
        case .characterDevice(let path):
            sink = .device(try Self.openDevice(path), path)
        }
    }

    deinit { discard() }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    /// Writes all of `output`, in as many `write(2)` calls as the kernel needs.
    func write(_ output: [UInt8]) throws {
        switch sink {
        case .standardOutput:
            if let code = Self.writeAll(output, to: STDOUT_FILENO) {
                throw CuffctlFailure(message: "cannot write to standard output: \(String(cString: strerror(code)))", status: ExitStatus.ioError)
            }
        case .replacement(let replacement):
            do {
                try replacement.write(output)
            } catch {
                throw Self.failure(error)
            }
        case let .device(descriptor, path):
            if let code = Self.writeAll(output, to: descriptor) {
                throw CuffctlFailure(message: "\(path) cannot be written: \(String(cString: strerror(code)))", status: ExitStatus.cannotCreate)
            }
        }
    }

    /// Makes the export FILE: synced to disk, renamed over FILE, the rename synced with its folder. A device has had
    /// everything already.
    func commit() throws {
        guard case .replacement(let replacement) = sink else { return }
        do {
            try replacement.commit()
        } catch {
            throw Self.failure(error)
        }
    }

    /// Removes the temporary file of an export that did not complete; closes a device.
    func discard() {
        switch sink {
        case .replacement(let replacement):
            replacement.discard()
        case let .device(descriptor, path) where descriptor >= 0:
            close(descriptor)
            sink = .device(-1, path)
        default:
            break
        }
    }

    /// `path`, a character device when looked at, opened for writing — without waiting (a terminal line without carrier
    /// would hold the open) and without becoming this process's controlling terminal — and checked again once open:
    /// whatever took its name meanwhile is refused, unwritten.
    private static func openDevice(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CuffctlFailure(message: "\(path) cannot be opened: \(String(cString: strerror(errno)))", status: ExitStatus.cannotCreate)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else {
            close(descriptor)
            throw CuffctlFailure(message: "\(path) is no longer a character device", status: ExitStatus.cannotCreate)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Writes all of `output` to `descriptor`; the errno of a failed write(2), nil when all was written.
    private static func writeAll(_ output: [UInt8], to descriptor: Int32) -> Int32? {
        var bytes = output[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : EIO }
            bytes = bytes.dropFirst(count)
        }
        return nil
    }

    private static func failure(_ error: DurableFileError) -> CuffctlFailure {
        CuffctlFailure(message: error.description, status: ExitStatus.cannotCreate)
    }
}
