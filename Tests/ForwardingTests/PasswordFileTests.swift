import Foundation
import INIConfiguration
import Testing

@testable import Forwarding

/// `PasswordFile=` of either sink: read at each connection, and refused at its line of forward.conf when it cannot be
/// read (docs/forwarding.md, "Exit status": 78).
@Suite("Password files")
struct PasswordFileTests {
    @Test("A password file that cannot be read names forward.conf's line, for PostgreSQL and for MQTT (exit 78); a readable one gives its first line")
    func unreadableNamesTheLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cuff-forward-password-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing").path
        let configuration = try ForwardConfiguration(
            parsing: """
                [Forward]
                Gateway=ward3
                [PostgreSQL]
                URL=postgresql://gateway1@db.example.org/health
                PasswordFile=\(missing)
                [MQTT]
                URL=mqtt://localhost
                User=cuff-forward
                PasswordFile=\(folder.path)
                """, file: "/etc/cuffd/forward.conf")
        #expect(performing: { try CentralServer(settings: configuration.postgreSQL!).connect() }, throws: { error in
            let failure = ForwardFailure(error)
            return failure.status == 78 && failure.message == "/etc/cuffd/forward.conf:5: PasswordFile=\(missing) cannot be read: No such file or directory"
        })
        #expect(performing: { try configuration.mqtt!.passwordFile!.read() }, throws: { error in
            (error as? ConfigurationError)?.description.hasPrefix("/etc/cuffd/forward.conf:9: PasswordFile=\(folder.path) cannot be read: ") == true
        })
        try "secret\nignored\n".write(toFile: missing, atomically: false, encoding: .utf8)
        #expect(try configuration.postgreSQL!.passwordFile!.read() == "secret")
    }
}
