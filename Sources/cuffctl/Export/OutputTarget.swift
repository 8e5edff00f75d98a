#if canImport(Glibc)
import Glibc
#endif
import DurableFiles

/// What `--output PATH` of `export` and `report` writes to (docs/export.md, "Output"), decided from what is at PATH
/// before anything is opened, created or written. Nothing but a regular file is ever replaced: run as root,
/// `--output /dev/null` must not turn the machine's null device into a file, nor a FIFO wait for a reader.
enum OutputTarget: Equatable {
    /// `-`: standard output.
    case standardOutput
    /// A regular file, or a path where nothing is yet: replaced whole and atomically (``FileReplacement``).
    case file(String)
    /// A character device — `/dev/null`, a terminal, or a symbolic link leading to one such as `/dev/stdout` on a
    /// terminal: opened and written through, never replaced nor truncated.
    case characterDevice(String)

    /// The target `path` names; anything else — a FIFO, a socket, a block device, a folder, a symbolic link to
    /// anything but a character device — is refused with exit 73 and a line naming what it is. A link to a file is
    /// refused rather than followed: root writing through a link someone planted in a shared folder would replace
    /// whatever it points to; nor is the link itself replaced.
    static func of(_ path: String) throws(CuffctlFailure) -> OutputTarget {
        if path == "-" { return .standardOutput }
        guard !path.isEmpty else { throw CuffctlFailure(message: "--output needs a path, or - for standard output", status: ExitStatus.cannotCreate) }
        guard let kind = FileKind.of(path) else {
            if errno == ENOENT { return .file(path) }
            throw CuffctlFailure(message: "\(path) cannot be written: \(String(cString: strerror(errno)))", status: ExitStatus.cannotCreate)
        }
        switch kind {
        case S_IFREG: return .file(path)
        case S_IFCHR: return .characterDevice(path)
        case S_IFLNK:
            var target = stat()
            let leadsTo = stat(path, &target) == 0 ? target.st_mode & S_IFMT : nil
            if leadsTo == S_IFCHR { return .characterDevice(path) }
            let what = leadsTo.map(FileKind.name(of:)) ?? "nothing"
            throw refusal(path, "a symbolic link to \(what), neither replaced nor written through (give the file's own path)")
        default:
            throw refusal(path, FileKind.name(of: kind))
        }
    }

    private static func refusal(_ path: String, _ what: String) -> CuffctlFailure {
        CuffctlFailure(
            message: "cannot write to \(path): it is \(what); --output writes only to a regular file or a new path (replaced whole once "
                + "complete) or to a character device such as /dev/null or a terminal (written through); - or no --output is standard output",
            status: ExitStatus.cannotCreate)
    }
}
