import DurableFiles
import Forwarding
import Foundation
import Testing

@Suite("The anchor file")
struct AnchorFileTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cuff-forward-anchor-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("No file is the beginning of the store; a write replaces the anchor whole and leaves no temporary file")
    func roundTrip() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = AnchorFile(path: folder.appendingPathComponent("anchor").path)
        #expect(try file.read() == 0)
        try file.write(42)
        try file.write(UInt64.max)
        #expect(try file.read() == UInt64.max)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["anchor"])
    }

    @Test("A temporary file a crash left behind is removed by the next write; a file that holds no anchor is an error, not 0")
    func leftoversAndDamage() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("anchor").path
        try "12\n".write(toFile: path, atomically: false, encoding: .utf8)
        try "garbage that is longer than the anchor".write(toFile: folder.appendingPathComponent(".anchor.X1y2Z3").path, atomically: false, encoding: .utf8)
        let file = AnchorFile(path: path)
        #expect(try file.read() == 12)
        try file.write(13)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "13\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["anchor"])
        try "".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: DurableFileError.self) { try file.read() }
    }
}
