import Foundation

/// A PostgreSQL server of the test's own (Debian's `postgresql` package): `initdb` in a temporary folder, listening
/// on a Unix socket in that folder and, with TLS, on 127.0.0.1 at a free port (`listen_addresses`, `ssl`,
/// PostgreSQL 15 documentation §20.3, §19.9), with password authentication (scram-sha-256) for every role. PostgreSQL refuses to run as root, so under root the server runs
/// as `nobody`, through setpriv(1). `stop()` must be called in the test's teardown.
public final class PostgresServer: @unchecked Sendable {
    public let directory: URL
    public let superuserPassword = "test-superuser"
    /// `nobody`, who owns the data folder, and whom cuff-forward runs as in these tests.
    public static let account = (uid: UInt32(65534), gid: UInt32(65534))

    public var socketDirectory: String { directory.path }
    /// The port of the socket, and of 127.0.0.1 with TLS.
    public let port: Int
    /// With TLS, what the server presents.
    public let certificates: TestCertificates?
    private var data: String { directory.appendingPathComponent("data").path }
    /// Where the server writes its write-ahead log, which every commit reaches before it is acknowledged (PostgreSQL
    /// 15 documentation §30.5): a file changing there is the event a wait for a committed row wakes on.
    public var walFolder: String { data + "/pg_wal" }

    /// `pg_config --bindir`: Debian keeps initdb and pg_ctl out of PATH.
    public static let binaries: String? = {
        guard let output = try? ExternalCommand.run("pg_config", ["--bindir"]), output.status == 0 else { return nil }
        return output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    public static var available: Bool { binaries.map { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") } ?? false }

    /// Makes the cluster and starts it; with `tls`, also on 127.0.0.1 with a certificate of ``certificates``.
    public init(tls: Bool = false) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cuff-forward-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = tls ? try freeLoopbackPort() : 5432
        certificates = tls ? try TestCertificates(in: directory) : nil
        if let certificates {
            try Self.giveToAccount(certificates.key)
            try Self.giveToAccount(certificates.certificate)
        }
        let passwordFile = directory.appendingPathComponent("superuser-password").path
        try superuserPassword.write(toFile: passwordFile, atomically: false, encoding: .utf8)
        try Self.giveToAccount(directory.path)
        try Self.giveToAccount(passwordFile)
        // --no-sync: nothing here tests PostgreSQL's own durability, and it halves initdb's time.
        try run("initdb", ["-D", data, "-U", "postgres", "-A", "scram-sha-256", "--pwfile=\(passwordFile)", "-E", "UTF8", "--no-sync"])
        try start()
    }

    public func start() throws {
        var options = "-k \(socketDirectory) -p \(port) -c listen_addresses='\(certificates == nil ? "" : "127.0.0.1")'"
        if let certificates { options += " -c ssl=on -c ssl_cert_file=\(certificates.certificate) -c ssl_key_file=\(certificates.key)" }
        try run("pg_ctl", ["-D", data, "-l", directory.appendingPathComponent("server.log").path, "-w", "-o", options, "start"])
    }

    /// A fast shutdown (§19.5): sessions are ended, what was committed stays.
    public func stop() throws {
        try run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"])
    }

    /// Stops the server if it runs and removes its folder.
    public func remove() {
        _ = try? run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Puts `line` first in pg_hba.conf (§21.1), so that it decides for the connections it matches, and reloads.
    public func authenticateFirst(_ line: String) throws {
        let path = data + "/pg_hba.conf"
        let rules = try String(contentsOfFile: path, encoding: .utf8)
        try (line + "\n" + rules).write(toFile: path, atomically: false, encoding: .utf8)
        try psql("SELECT pg_reload_conf()")
    }

    /// Runs SQL through psql, an independent client, as the superuser or `user`, and returns the rows, `|`-separated.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres", user: (name: String, password: String)? = nil) throws -> [String] {
        let (name, password) = user ?? ("postgres", superuserPassword)
        let connection = "host=\(socketDirectory) port=\(port) user=\(name) password=\(password) dbname=\(database)"
        let output = try ExternalCommand.run("psql", [connection, "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-c", sql])
        guard output.status == 0 else { throw TestFailure("psql \(sql): \(output.standardError)") }
        return output.standardOutput.split(separator: "\n").map(String.init)
    }

    /// Makes `path` the account's (when the test runs as root; otherwise the test's user owns it already).
    public static func giveToAccount(_ path: String) throws {
        guard getuid() == 0 else { return }
        guard chown(path, account.uid, account.gid) == 0 else { throw TestFailure("cannot chown \(path)") }
    }

    /// `argv` as the account: through setpriv(1) under root, as is otherwise. The environment is the account's
    /// (`--reset-env`): with root's HOME, libpq would look for client certificates in /root/.postgresql and, not
    /// allowed in, fail the connection.
    public static func asAccount(_ argv: [String]) -> [String] {
        guard getuid() == 0 else { return argv }
        return ["/usr/bin/setpriv", "--reuid=\(account.uid)", "--regid=\(account.gid)", "--groups=\(account.gid)", "--reset-env"] + argv
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let argv = Self.asAccount([Self.binaries! + "/" + tool] + arguments)
        let output = try ExternalCommand.run(argv[0], Array(argv.dropFirst()))
        guard output.status == 0 else { throw TestFailure("\(tool) exited \(output.status): \(output.standardError)\(output.standardOutput)") }
    }
}
