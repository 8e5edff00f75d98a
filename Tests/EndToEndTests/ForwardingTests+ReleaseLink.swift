import DBusTestSupport
import Foundation
import Testing

/// cuff-forward as the release build links it (Package.swift, `smallResidentFootprint`): libpq from its archive, its
/// LDAP and GSSAPI calls answered by Sources/CPostgreSQLStatic (docs/forwarding.md, "Why libpq"). Debug and test builds
/// link libpq's shared object, which loads LDAP and Kerberos, so this test runs the release binary that
/// `CUFF_FORWARD_BINARY` names: `make`, then
/// `CUFF_FORWARD_BINARY=.build/static/release/cuff-forward swift test --skip-build --filter ForwardingTests` (.ci/run).
extension ForwardingTests {
    @Test("The release link: Kerberos refused in CPostgreSQLStatic's words; forwarding over TLS with neither libpq.so nor LDAP, GnuTLS or Kerberos mapped",
          .enabled(if: ForwardingStack.releaseBinary != nil, "runs the release cuff-forward CUFF_FORWARD_BINARY names (make)"))
    func releaseLink() async throws {
        try await withTeardown { teardown in
            let forwarding = try await ForwardingStack.make(scenario: "stored-records.json", tls: true)
            teardown.add { forwarding.server.remove() }
            let certificates = try #require(forwarding.server.certificates)
            try await forwarding.stack.startDaemon()
            let kerberos = try await Self.kerberizedLogin(forwarding, certificates)
            #expect(kerberos.status == 69 && kerberos.standardError.contains("GSSAPI name import error: cuff-forward is built without GSSAPI"),
                    "\(kerberos.status) \(kerberos.standardError)")

            try await Self.forwardOverTLS(forwarding, certificates)
            let pid = try #require(forwarding.forwarder?.pid)  // setpriv executes cuff-forward in place
            // Read to its end: /proc says its files are empty, and String(contentsOfFile:) would stop after one read.
            let maps = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps")).readDataToEndOfFile()
            let mapped = String(decoding: maps, as: UTF8.self)
            for library in ["libpq.so", "libldap", "libgnutls", "libgssapi_krb5", "libkrb5"] {
                #expect(!mapped.contains(library), "\(library) is mapped")
            }
            #expect(mapped.contains("libssl.so"), "the TLS session's library is not mapped: not the forwarder's maps?")
            let binary = URL(fileURLWithPath: ForwardingStack.binary).resolvingSymlinksInPath().path
            #expect(mapped.contains(binary), "not the maps of \(binary)?")
        }
    }

    /// cuff-forward --migrate as a role the server wants Kerberos (GSSAPI) authentication of, over TLS (verify-full).
    static func kerberizedLogin(_ forwarding: ForwardingStack, _ certificates: TestCertificates) async throws -> ExternalCommand.Output {
        try await offCooperativePool { try forwarding.server.authenticateFirst("hostssl all kerberized 127.0.0.1/32 gss") }
        try forwarding.writeConfiguration(
            url: "postgresql://kerberized@localhost:\(forwarding.server.port)/health?sslrootcert=\(certificates.authority)", sslMode: "verify-full")
        return try await forwarding.runForwarder(["--config", forwarding.configurationPath, "--migrate"])
    }

    /// The central schema migrated and cuff-forward started over TLS (verify-full with the test CA's certificate), read
    /// access granted and the scenario's cuff paired, until the central table holds the gateway's readings.
    static func forwardOverTLS(_ forwarding: ForwardingStack, _ certificates: TestCertificates) async throws {
        try forwarding.writeConfiguration(
            url: "postgresql://gateway1@localhost:\(forwarding.server.port)/health?sslrootcert=\(certificates.authority)", sslMode: "verify-full")
        let migrate = try await forwarding.runForwarder(["--config", forwarding.configurationPath, "--migrate"])
        #expect(migrate.status == 0, "\(migrate.standardError)")
        #expect(try await forwarding.stack.cuffctl(["grant", "\(PostgresServer.account.uid)", "bloodPressure", "read"]).status == 0)
        #expect(try await forwarding.stack.cuffctl(["pair", cuff]).status == 0)
        try forwarding.startForwarder()
        try await forwarding.waitUntilCentralMatchesGateway()
    }
}
