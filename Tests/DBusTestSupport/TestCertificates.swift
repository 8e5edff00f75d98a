import Foundation

/// A certificate authority of the test's own and a server certificate it signed for `localhost` (DNS name only,
/// so that a client asking for 127.0.0.1 with `verify-full` is refused), made with openssl(1) in `directory`.
/// P-256 keys: quick to make.
public struct TestCertificates: Sendable {
    public let authority: String
    public let certificate: String
    public let key: String

    public init(in directory: URL, name: String = "test") throws {
        func path(_ file: String) -> String { directory.appendingPathComponent("\(name)-\(file)").path }
        authority = path("ca.crt")
        certificate = path("server.crt")
        key = path("server.key")
        let extensions = path("server.ext")
        try "subjectAltName=DNS:localhost\n".write(toFile: extensions, atomically: false, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + key + ["-keyout", path("ca.key"), "-out", authority, "-days", "2", "-subj", "/CN=cuffd \(name) CA"])
        try Self.openssl(["req"] + key + ["-keyout", self.key, "-out", path("server.csr"), "-subj", "/CN=localhost"])
        try Self.openssl([
            "x509", "-req", "-in", path("server.csr"), "-CA", authority, "-CAkey", path("ca.key"), "-CAcreateserial",
            "-out", certificate, "-days", "2", "-extfile", extensions,
        ])
    }

    private static func openssl(_ arguments: [String]) throws {
        let output = try ExternalCommand.run("openssl", arguments)
        guard output.status == 0 else { throw TestFailure("openssl \(arguments.first ?? ""): \(output.standardError)") }
    }
}
