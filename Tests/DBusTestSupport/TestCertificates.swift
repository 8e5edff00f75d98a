import Foundation

/// A certificate authority of the test's own and a server certificate it signed for `localhost` (DNS name only,
/// so that a client asking for 127.0.0.1 with `verify-full` is refused), made with openssl(1) in `directory`; client
/// certificates it signs on demand (``client(_:)``). P-256 keys: quick to make.
public struct TestCertificates: Sendable {
    public let authority: String
    public let certificate: String
    public let key: String
    private let directory: URL
    private let name: String

    public init(in directory: URL, name: String = "test") throws {
        self.directory = directory
        self.name = name
        authority = directory.appendingPathComponent("\(name)-ca.crt").path
        (certificate, key) = (directory.appendingPathComponent("\(name)-server.crt").path, directory.appendingPathComponent("\(name)-server.key").path)
        try Self.openssl(["req", "-x509"] + Self.newKey + ["-keyout", path("ca.key"), "-out", authority, "-days", "2", "-subj", "/CN=cuffd \(name) CA"])
        try sign("server", commonName: "localhost", extensions: "subjectAltName=DNS:localhost\n")
    }

    /// A client certificate for `commonName` (extended key usage clientAuth) signed by this authority, and its key.
    public func client(_ commonName: String) throws -> (certificate: String, key: String) {
        try sign("client-\(commonName)", commonName: commonName, extensions: "extendedKeyUsage=clientAuth\n")
        return (path("client-\(commonName).crt"), path("client-\(commonName).key"))
    }

    private static let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    private func path(_ file: String) -> String { directory.appendingPathComponent("\(name)-\(file)").path }

    /// `role`.key and `role`.crt: a new key and its certificate for `commonName`, signed by the authority.
    private func sign(_ role: String, commonName: String, extensions: String) throws {
        try extensions.write(toFile: path("\(role).ext"), atomically: false, encoding: .utf8)
        try Self.openssl(["req"] + Self.newKey + ["-keyout", path("\(role).key"), "-out", path("\(role).csr"), "-subj", "/CN=\(commonName)"])
        try Self.openssl([
            "x509", "-req", "-in", path("\(role).csr"), "-CA", authority, "-CAkey", path("ca.key"), "-CAcreateserial",
            "-out", path("\(role).crt"), "-days", "2", "-extfile", path("\(role).ext"),
        ])
    }

    private static func openssl(_ arguments: [String]) throws {
        let output = try ExternalCommand.run("openssl", arguments)
        guard output.status == 0 else { throw TestFailure("openssl \(arguments.first ?? ""): \(output.standardError)") }
    }
}
