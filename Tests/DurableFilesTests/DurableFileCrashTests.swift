import DBusTestSupport
import DurableFiles
import Foundation
import Testing
@testable import durable_file_crash_writer

/// Process crashes against ``DurableFile`` (after HealthStoreTests' CrashSafetyTests): a child writer
/// (`durable-file-crash-writer`) replaces one file over and over, reporting each step of each replacement, and is
/// SIGKILLed once it has reported a random number of steps, the kill landing in the step after — the temporary file's
/// creation, a part's write(2), the commit's fsync, rename and folder fsync. Afterwards the file holds a whole
/// generation — the newest one reported committed, or the one in progress — and beside it at most the killed writer's
/// own temporary file, those of earlier kills having been removed by the next writer's first replacement.
///
/// Iterations: `CUFFD_CRASH_ITERATIONS` (default 60; a few seconds). Seed: `CUFFD_CRASH_SEED` for a reproducible run.
@Suite struct DurableFileCrashTests {
    static var writerPath: String {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        // The runner may be inside a .xctest bundle.
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("durable-file-crash-writer").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("durable-file-crash-writer").path
    }

    @Test("A writer SIGKILLed at random points leaves the old or the new content whole, and no temporary files that pile up")
    func killedWriters() async throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = Int(environment["CUFFD_CRASH_ITERATIONS"] ?? "") ?? 60
        let seed = UInt64(environment["CUFFD_CRASH_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970)
        var random = SplitMix(seed: seed)
        let writer = Self.writerPath
        try #require(FileManager.default.isExecutableFile(atPath: writer), "durable-file-crash-writer not found at \(writer)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durable-crash-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file").path
        // Each replacement reports "begun", a "part" per write(2) and "wrote".
        let stepsPerReplacement = UInt64(CrashGeneration.parts + 2)

        var first: UInt64 = 1
        var committed: UInt64?
        var killedMidWrite = 0
        for iteration in 0 ..< iterations {
            let steps = Int(1 + random.next() % (3 * stepsPerReplacement))
            let lines = try await offCooperativePool { [first] in try Self.killWriter(writer, path: path, first: first, after: steps) }
            let context = "seed \(seed), iteration \(iteration)"
            #expect(lines.count >= steps, "\(context): \(lines)")
            let wrote = lines.filter { $0.hasPrefix("wrote ") }.compactMap { UInt64($0.dropFirst("wrote ".count)) }
            #expect(wrote == Array(first ..< first + UInt64(wrote.count)), "\(context): \(lines)")
            committed = wrote.last ?? committed
            let inProgress = first + UInt64(wrote.count)
            let content = FileManager.default.contents(atPath: path).map { CrashGeneration.generation(of: Array($0)) }
            switch content {
            case nil: #expect(committed == nil, "\(context): the file is missing after generation \(committed ?? 0)")
            case let generation?: #expect(generation != nil && (generation == committed || generation == inProgress),
                                          "\(context): generation \(String(describing: generation)), \(String(describing: committed)) committed")
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "file" }
            #expect(leftovers.count <= 1, "\(context): \(leftovers)")
            if !leftovers.isEmpty { killedMidWrite += 1 }
            first = inProgress + 1
        }
        #expect(killedMidWrite > 0, "no kill landed while a temporary file existed (seed \(seed))")
        try DurableFile(path: path, mode: 0o600).write(CrashGeneration.content(first))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["file"])
    }

    /// One writer run: started at generation `first`, SIGKILLed as soon as it has reported `steps` steps; the complete
    /// lines it wrote, read to the end of its output.
    static func killWriter(_ writer: String, path: String, first: UInt64, after steps: Int) throws -> [String] {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw TestFailure("pipe: \(String(cString: strerror(errno)))") }
        defer { close(ends[0]) }
        let child: ChildProcess
        do {
            defer { close(ends[1]) }
            child = try ChildProcess(writer, [path, "\(first)"], standardOutput: .descriptor(ends[1]))
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var killed = false
        while true {
            if !killed, output.count(where: { $0 == UInt8(ascii: "\n") }) >= steps {
                kill(child.pid, SIGKILL)
                killed = true
            }
            // A deadline only against a writer that hangs: it reports a step every few milliseconds.
            var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 60_000) > 0 else { throw TestFailure("the writer reported nothing for 60 s") }
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[..<count]
        }
        let status = child.waitForExit()
        guard killed, status == 128 + SIGKILL else {
            throw TestFailure("the writer ended on its own (status \(status)) after: \(String(decoding: output, as: UTF8.self))")
        }
        // Only complete lines are steps done.
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
