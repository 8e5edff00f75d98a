import DBusTestSupport
import DurableFiles
import Foundation
import Testing

@testable import Forwarding

/// cuff-forward's state — its anchors, `users.json`, the folders they are in — behind symbolic links and other files
/// of the wrong kind (docs/forwarding.md, "The anchor rule"): never read through, never written through, refused with
/// exit 73 and left as they are, as cuffd's store refuses a link (docs/health-store.md, "The store file").
@Suite("State files behind links")
struct StateFileLinkTests {
    /// A folder with `victim`, a file a link planted in the state folder points to.
    static func folder() throws -> (URL, victim: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cuff-forward-links-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let victim = folder.appendingPathComponent("victim").path
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        return (folder, victim)
    }

    static func expectWrongKind(_ error: DurableFileError, _ kind: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.isWrongKind && error.description.contains("it is \(kind)"), "\(error)", sourceLocation: sourceLocation)
        #expect(ForwardFailure(error).status == 73, sourceLocation: sourceLocation)
    }

    @Test("A link at State=, to a file holding an anchor: refused when read and when written (exit 73); the link and the file left as they are")
    func linkAtTheAnchor() throws {
        let (folder, victim) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "12\n".write(toFile: victim, atomically: false, encoding: .utf8)
        let path = folder.appendingPathComponent("anchor").path
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: victim)
        let anchor = AnchorFile(path: path)
        #expect(performing: { try anchor.read() }, throws: { Self.expectWrongKind($0 as! DurableFileError, "a symbolic link"); return true })
        #expect(performing: { try anchor.write(13) }, throws: { Self.expectWrongKind($0 as! DurableFileError, "a symbolic link"); return true })
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == victim)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "12\n")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["anchor", "victim"])
    }

    @Test("Links planted at temporary names — the old anchor.tmp, and a .anchor.XXXXXX one — are not written through: the anchor becomes a file of its own")
    func linksAtTemporaryNames() throws {
        let (folder, victim) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["anchor.tmp", ".anchor.AAAAAA", ".anchor.tmp"] {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path, withDestinationPath: victim)
        }
        let path = folder.appendingPathComponent("anchor").path
        let anchor = AnchorFile(path: path)
        try anchor.write(42)
        #expect(try anchor.read() == 42)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test("users.json behind a link, and a FIFO or a folder at State=: refused without blocking or reading them")
    func otherKinds() throws {
        let (folder, victim) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let users = folder.appendingPathComponent("users.json").path
        try "[]".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: users, withDestinationPath: victim)
        #expect(performing: { try PublishedUsers(path: users).read() }, throws: { Self.expectWrongKind($0 as! DurableFileError, "a symbolic link"); return true })
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opened for reading without O_NONBLOCK, a FIFO would block until a writer came.
        #expect(performing: { try AnchorFile(path: fifo).read() }, throws: { Self.expectWrongKind($0 as! DurableFileError, "a FIFO"); return true })
        #expect(performing: { try AnchorFile(path: folder.path).read() }, throws: { Self.expectWrongKind($0 as! DurableFileError, "a folder"); return true })
    }

    @Test("A state folder that is a link, or a file, is refused (exit 73) and left as it is; a missing MQTT folder is made with mode 0700")
    func stateFolders() throws {
        let (folder, victim) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        let linked = folder.appendingPathComponent("state").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: elsewhere.path)
        for make in [false, true] {
            #expect(performing: { try StateFolder.prepare(linked, make: make) }, throws: { Self.expectWrongKind($0 as! DurableFileError, "a symbolic link"); return true })
        }
        // mqtt/ is not made through a link at the folder of [Forward]'s State=.
        #expect(performing: { try StateFolder.prepare(linked + "/mqtt", make: true) }, throws: { error in
            Self.expectWrongKind(error as! DurableFileError, "a symbolic link")
            return (error as! DurableFileError).path == linked
        })
        #expect(performing: { try StateFolder.prepare(victim, make: true) }, throws: { Self.expectWrongKind($0 as! DurableFileError, "a regular file"); return true })
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linked) == elsewhere.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)

        let mqtt = folder.appendingPathComponent("mqtt").path
        #expect(throws: DurableFileError.self) { try StateFolder.prepare(mqtt, make: false) }
        try StateFolder.prepare(mqtt, make: true)
        #expect(try FileManager.default.attributesOfItem(atPath: mqtt)[.posixPermissions] as? Int == 0o700)
        try StateFolder.prepare(mqtt, make: true)
    }

    @Test("cuff-forward with [Forward]'s State= in a folder that is a link, MQTT's mqtt/ to be made in it: exit 73 naming the folder, nothing made")
    func programRefusesALinkedFolder() async throws {
        let (folder, _) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
        let state = folder.appendingPathComponent("state").path
        try FileManager.default.createSymbolicLink(atPath: state, withDestinationPath: elsewhere.path)
        let configuration = folder.appendingPathComponent("forward.conf").path
        try "[Forward]\nGateway=ward3\nState=\(state)/anchor\n[MQTT]\nURL=mqtt://127.0.0.1\n".write(toFile: configuration, atomically: false, encoding: .utf8)
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("cuff-forward").path
        let output = try await ExternalCommand.runDetached(binary, ["--config", configuration, "--bus", bus.address])
        #expect(output.status == 73, "\(output.standardError)")
        #expect(output.standardError.contains("\(state) cannot hold the state: it is a symbolic link, not a folder"), "\(output.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }
}
