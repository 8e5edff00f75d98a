import DurableFiles
import Foundation
import Testing

@Suite("A durable file")
struct DurableFileTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("durable-file-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func mode(_ path: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }

    @Test("No file reads as nil; a write replaces the content whole, with the mode asked, and leaves no temporary file")
    func replaces() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state").path
        #expect(try DurableFile(path: path, mode: 0o600).read() == nil)
        try DurableFile(path: path, mode: 0o600).write(Array(repeating: UInt8(ascii: "x"), count: 100_000))
        #expect(try Self.mode(path) == 0o600)
        for mode: mode_t in [0o644, 0o640] {
            try DurableFile(path: path, mode: mode).write("short".utf8)
            #expect(try Self.mode(path) == Int(mode))
        }
        #expect(try DurableFile(path: path, mode: 0o640).read() == Array("short".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["state"])
    }

    @Test("A failure names the file and the cause, and leaves the file as it was and no temporary file")
    func failures() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no/such/folder/state").path
        #expect(throws: DurableFileError.self) { try DurableFile(path: missing, mode: 0o600).write("x".utf8) }
        do {
            try DurableFile(path: missing, mode: 0o600).write("x".utf8)
        } catch {
            #expect(error.path == missing)
            #expect(error.description.hasSuffix("No such file or directory"), "\(error)")
        }
        let directory = folder.appendingPathComponent("a-folder")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try "inside".write(to: directory.appendingPathComponent("kept"), atomically: false, encoding: .utf8)
        do {
            try DurableFile(path: directory.path, mode: 0o600).write("x".utf8)
            Issue.record("a folder was replaced by a file")
        } catch {
            #expect(error.description.contains("cannot be replaced: "), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["a-folder"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["kept"])
    }

    @Test("A replacement written in parts appears only on commit; discarded, or ended without a commit, it leaves nothing")
    func replacementInParts() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DurableFile(path: folder.appendingPathComponent("export.csv").path, mode: 0o600)
        try file.write("before".utf8)
        let replacement = try FileReplacement(replacing: file)
        try replacement.write("after, ".utf8)
        try replacement.write("in parts".utf8)
        #expect(try file.read() == Array("before".utf8))
        #expect(replacement.temporaryPath.hasPrefix(folder.appendingPathComponent(".export.csv.").path))
        try replacement.commit()
        #expect(try file.read() == Array("after, in parts".utf8))

        let discarded = try FileReplacement(replacing: file)
        try discarded.write("lost".utf8)
        discarded.discard()
        do {
            let abandoned = try FileReplacement(replacing: file)
            try abandoned.write("lost too".utf8)
        }
        #expect(try file.read() == Array("after, in parts".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["export.csv"])
    }

    @Test("A write removes the temporary files dead writers left, and none a writer still holds, a link, or another name")
    func leftovers() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DurableFile(path: folder.appendingPathComponent("anchor").path, mode: 0o600)
        // A writer at work (its temporary file locked), a crashed one's file, a link where one could be, and names
        // that are not temporary files of this file.
        let atWork = try FileReplacement(replacing: file)
        try atWork.write("12\n".utf8)
        let crashed = folder.appendingPathComponent(".anchor.Ab3dE9").path
        try "garbage".write(toFile: crashed, atomically: false, encoding: .utf8)
        let outside = folder.appendingPathComponent("outside").path
        try "not mine".write(toFile: outside, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(".anchor.L1nk00").path, withDestinationPath: outside)
        for other in [".anchor.toolong7", ".anchor.ab-cd!", ".other.Ab3dE9", "anchor.tmp"] {
            try "other".write(toFile: folder.appendingPathComponent(other).path, atomically: false, encoding: .utf8)
        }
        try file.write("13\n".utf8)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(!names.contains(".anchor.Ab3dE9"), "the crashed writer's file stays")
        #expect(names.contains(URL(fileURLWithPath: atWork.temporaryPath).lastPathComponent), "the working writer's file was taken")
        #expect(names.isSuperset(of: [".anchor.L1nk00", ".anchor.toolong7", ".anchor.ab-cd!", ".other.Ab3dE9", "anchor.tmp", "outside"]))
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "not mine")
        // The writer at work finishes unharmed.
        try atWork.commit()
        #expect(try file.read() == Array("12\n".utf8))
    }

    @Test("The folder of a path, as NSString's deletingLastPathComponent gives it")
    func parentFolders() {
        let paths = ["/var/lib/cuff-forward/anchor", "/var/lib/cuff-forward/", "/anchor", "anchor", "/", "a//b", "state/anchor"]
        #expect(paths.map(parentFolder(of:)) == paths.map { ($0 as NSString).deletingLastPathComponent })
    }
}
