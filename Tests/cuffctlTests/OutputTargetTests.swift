import Foundation
import HealthStore
import Testing
@testable import cuffctl

#if canImport(Glibc)
import Glibc
#endif

/// What `--output` of `export` and `report` may be (docs/export.md, "Output"): a regular file or a new path replaced
/// whole, a character device written through and left a device, `-` standard output; a FIFO, a socket, a block device,
/// a directory and a symbolic link to anything but a character device refused with exit 73, untouched. cuffctl runs
/// as a process on an empty store file (`--store`), in a folder of the test's own: its device nodes are made with
/// mknod(2) as those of /dev/null (1, 3) and /dev/full (1, 7), which needs CAP_MKNOD (tests run as root).
@Suite("--output")
struct OutputTargetTests {
    /// Every command with `--output`.
    static let commands = [["export", "--format", "csv"], ["report"]]

    static let mayMakeDevices: Bool = {
        let folder = Folder()
        return mknod(folder.path("probe"), S_IFCHR | 0o600, Folder.device(1, 3)) == 0
    }()

    /// A temporary folder with an empty store in it, removed with the value.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cuffctl-output-\(UUID().uuidString)")

        init() {
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        /// An empty cuffd store, for `--store`.
        func store() throws -> String {
            let path = path("health.sqlite")
            _ = try HealthStore.open(path: path)
            return path
        }

        /// The device number of (major, minor), as glibc's makedev(3) makes it for numbers below 256.
        static func device(_ major: UInt, _ minor: UInt) -> dev_t { dev_t(major << 8 | minor) }

        func status(_ name: String) -> stat? {
            var status = stat()
            return lstat(path(name), &status) == 0 ? status : nil
        }

        /// The names in the folder but the store's: what a failed or refused write must not add to (no `.NAME.XXXXXX`).
        var names: Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix("health.sqlite") })
        }
    }

    static func run(_ command: [String], output: String, in folder: Folder) async throws -> CuffctlProcess.Outcome {
        try await CuffctlProcess.run(command + ["--store", try folder.store(), "--output", output])
    }

    @Test("A character device is written through and stays the device it was", .enabled(if: mayMakeDevices, "mknod(2) is not permitted here"),
          arguments: commands)
    func characterDeviceWrittenThrough(_ command: [String]) async throws {
        let folder = Folder()
        #expect(mknod(folder.path("null"), S_IFCHR | 0o666, Folder.device(1, 3)) == 0)
        #expect(symlink("null", folder.path("link-to-null")) == 0)
        let before = try #require(folder.status("null"))
        for name in ["null", "link-to-null"] {
            let outcome = try await Self.run(command, output: folder.path(name), in: folder)
            #expect(outcome.status == 0, "\(outcome.standardError)")
        }
        let node = try #require(folder.status("null"))
        #expect(node.st_mode & S_IFMT == S_IFCHR && node.st_rdev == Folder.device(1, 3))
        #expect(node.st_ino == before.st_ino && node.st_mode == before.st_mode && node.st_uid == before.st_uid, "the same node, unchanged")
        #expect(folder.status("link-to-null").map { $0.st_mode & S_IFMT == S_IFLNK } == true)
        #expect(folder.names == ["null", "link-to-null"])
    }

    @Test("A device that refuses the write (ENOSPC): exit 73 naming the cause, still a device",
          .enabled(if: mayMakeDevices, "mknod(2) is not permitted here"), arguments: commands)
    func fullDevice(_ command: [String]) async throws {
        let folder = Folder()
        #expect(mknod(folder.path("full"), S_IFCHR | 0o666, Folder.device(1, 7)) == 0)
        let outcome = try await Self.run(command, output: folder.path("full"), in: folder)
        #expect(outcome.status == 73)
        #expect(outcome.standardError.contains("full cannot be written: No space left on device"), "\(outcome.standardError)")
        #expect(folder.status("full").map { $0.st_mode & S_IFMT == S_IFCHR && $0.st_rdev == Folder.device(1, 7) } == true)
    }

    @Test("A FIFO, a directory and a symbolic link to a file are refused with exit 73 and left as they were", arguments: commands)
    func refusedUntouched(_ command: [String]) async throws {
        let folder = Folder()
        #expect(mkfifo(folder.path("fifo"), 0o666) == 0)
        // Held open for reading, so that a cuffctl that opened the FIFO would not wait for a reader: refused, not hung.
        let reader = open(folder.path("fifo"), O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        #expect(mkdir(folder.path("folder"), 0o755) == 0)
        try Data("kept\n".utf8).write(to: folder.url.appendingPathComponent("file.csv"))
        #expect(symlink("file.csv", folder.path("link")) == 0)
        #expect(symlink("nowhere.csv", folder.path("dangling")) == 0)
        for (name, kind) in [("fifo", "a FIFO"), ("folder", "a folder"), ("link", "a symbolic link to a regular file"), ("dangling", "a symbolic link to nothing,")] {
            let outcome = try await Self.run(command, output: folder.path(name), in: folder)
            #expect(outcome.status == 73, "\(name)")
            #expect(outcome.standardError.contains("cannot write to \(folder.path(name)): it is \(kind)"), "\(outcome.standardError)")
        }
        #expect(folder.status("fifo").map { $0.st_mode & S_IFMT == S_IFIFO } == true)
        #expect(folder.status("folder").map { $0.st_mode & S_IFMT == S_IFDIR } == true)
        #expect(folder.status("link").map { $0.st_mode & S_IFMT == S_IFLNK } == true)
        #expect(folder.status("dangling").map { $0.st_mode & S_IFMT == S_IFLNK } == true)
        #expect(try String(contentsOf: folder.url.appendingPathComponent("file.csv"), encoding: .utf8) == "kept\n")
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) <= 0, "nothing was written into the FIFO")
        #expect(folder.names == ["fifo", "folder", "file.csv", "link", "dangling"])
    }

    @Test("A regular file or a new path is replaced whole, mode 0600; - is standard output", arguments: commands)
    func fileNewPathAndStandardOutput(_ command: [String]) async throws {
        let folder = Folder()
        try Data("old\n".utf8).write(to: folder.url.appendingPathComponent("existing"))
        for name in ["existing", "new"] {
            let outcome = try await Self.run(command, output: folder.path(name), in: folder)
            #expect(outcome.status == 0, "\(outcome.standardError)")
            #expect(outcome.standardOutput.isEmpty)
            let status = try #require(folder.status(name))
            #expect(status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o777 == 0o600)
            #expect(try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8).count > 10)
        }
        let standardOutput = try await Self.run(command, output: "-", in: folder)
        #expect(standardOutput.status == 0)
        #expect(standardOutput.standardOutput.hasPrefix(command[0] == "report" ? "<!DOCTYPE html>" : "local_time,"))
    }

    @Test("What is at PATH decides, looked at without following a link or opening anything")
    func classification() throws {
        let folder = Folder()
        #expect(try OutputTarget.of("-") == .standardOutput)
        #expect(try OutputTarget.of(folder.path("new")) == .file(folder.path("new")))
        #expect(try OutputTarget.of("/dev/null") == .characterDevice("/dev/null"))
        #expect(throws: CuffctlFailure.self) { try OutputTarget.of("") }
        try Data("x".utf8).write(to: folder.url.appendingPathComponent("file"))
        #expect(throws: CuffctlFailure.self) { try OutputTarget.of(folder.path("file/under-a-file")) }
        let socketPath = folder.path("socket")
        let socket = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath.utf8 + [0]) }
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(bound == 0)
        do {
            _ = try OutputTarget.of(socketPath)
            Issue.record("a socket was accepted")
        } catch {
            #expect(error.status == ExitStatus.cannotCreate && error.message.contains("it is a socket"))
        }
    }

    @Test("A path cuffctl cannot write is named on one line, escaped like everything else it prints")
    func unwritablePathEscaped() async throws {
        let folder = Folder()
        let outcome = try await Self.run(["export", "--format", "csv"], output: folder.path("missing\u{1B}[2J/out.csv"), in: folder)
        #expect(outcome.status == 73)
        #expect(outcome.standardError.contains(#"missing\x1b[2J/out.csv"#) && !outcome.standardError.contains("\u{1B}"), "\(outcome.standardError)")
        #expect(outcome.standardError.components(separatedBy: "\n").count == 2)
    }
}
