import DBusTestSupport
import Foundation

/// cuff-sim and cuffd on a private bus (``Stack``), a PostgreSQL of the test's own (``PostgresServer``) — or one shared
/// with another gateway's stack — with a role for this gateway, and cuff-forward run as `nobody` — a uid cuffd knows
/// only through the reader group it is started with and a read grant — with its configuration, password file and state
/// folder.
final class ForwardingStack: @unchecked Sendable {
    let stack: Stack
    let server: PostgresServer
    /// The gateway's role at the server, and the name its readings carry centrally (`Gateway=`).
    let role: String
    let gatewayName: String
    /// Every gateway role's password: one forward.conf may then log in as another gateway's role (as the row-security
    /// test's does).
    static let gatewayPassword = "gateway-secret"
    var gatewayPassword: String { Self.gatewayPassword }
    /// The role's login, for ``query(_:as:)``.
    var account: (name: String, password: String) { (role, gatewayPassword) }
    private(set) var forwarder: ChildProcess?

    var directory: URL { stack.directory }
    var configurationPath: String { directory.appendingPathComponent("forward.conf").path }
    var anchorPath: String { directory.appendingPathComponent("state/anchor").path }

    /// cuff-forward's status file, beside its anchor.
    var statusPath: String { directory.appendingPathComponent("state/status.json").path }

    /// `cuffctl forward status --json` as root, parsed.
    func forwardStatus() async throws -> [String: Any] { try await stack.forwardStatus(statusPath) }

    /// The release cuff-forward `CUFF_FORWARD_BINARY` names, for the checks of its link (ForwardingTests+ReleaseLink).
    static let releaseBinary = ProcessInfo.processInfo.environment["CUFF_FORWARD_BINARY"]
    /// The cuff-forward the tests run: that one, or this build's.
    static let binary = releaseBinary ?? Stack.binaries.appendingPathComponent("cuff-forward").path

    /// The first gateway, `gateway1` writing as `ward3`, on a server of its own whose database its role owns.
    /// `readerGroup` is cuffd's `--reader-group`: `nogroup` (nobody's) lets cuff-forward call it. With `tls`, the
    /// server also listens on 127.0.0.1 with a certificate of a test CA (the configuration still uses the socket). A cuff
    /// measures when the test presses START (``Stack/measure(_:_:as:)``), so nothing reaches the store unasked.
    static func make(scenario: String, readerGroup: String = "nogroup", tls: Bool = false) async throws -> ForwardingStack {
        let stack = try await Stack.make(scenario: scenario, daemonArguments: ["--reader-group", readerGroup], manualStart: true)
        let server = try await offCooperativePool { try PostgresServer(tls: tls) }
        do {
            return try await offCooperativePool {
                try server.psql("CREATE ROLE gateway1 LOGIN PASSWORD '\(gatewayPassword)'")
                try server.psql("CREATE DATABASE health OWNER gateway1")
                return try ForwardingStack(stack: stack, server: server, role: "gateway1", gatewayName: "ward3")
            }
        } catch {
            server.remove()
            throw error
        }
    }

    /// A further gateway on the first's server, once the first has migrated it: `role` made and registered for
    /// `gatewayName` by the administrator (``register(role:gatewayName:)``).
    static func make(scenario: String, joining first: ForwardingStack, role: String, gatewayName: String) async throws -> ForwardingStack {
        let stack = try await Stack.make(scenario: scenario, daemonArguments: ["--reader-group", "nogroup"], manualStart: true)
        try await first.register(role: role, gatewayName: gatewayName)
        return try await offCooperativePool { try ForwardingStack(stack: stack, server: first.server, role: role, gatewayName: gatewayName) }
    }

    /// What an administrator does for each further gateway (docs/forwarding.md, "Setting it up"): a role with the
    /// rights to write, its name registered for it.
    func register(role: String, gatewayName: String) async throws {
        _ = try await query("CREATE ROLE \(role) LOGIN PASSWORD '\(gatewayPassword)'")
        _ = try await query("GRANT SELECT, INSERT, UPDATE ON readings, heart_rates TO \(role)")
        _ = try await query("GRANT SELECT ON gateways, cuff_forward_schema TO \(role)")
        _ = try await query("INSERT INTO gateways (name, role) VALUES ('\(gatewayName)', '\(role)')")
    }

    private init(stack: Stack, server: PostgresServer, role: String, gatewayName: String) throws {
        self.stack = stack
        self.server = server
        self.role = role
        self.gatewayName = gatewayName
        let state = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
        try PostgresServer.giveToAccount(state.path)
        try (gatewayPassword + "\n").write(toFile: passwordFile, atomically: false, encoding: .utf8)
        chmod(passwordFile, 0o600)
        try PostgresServer.giveToAccount(passwordFile)
        try writeConfiguration(url: socketURL, sslMode: "disable")
    }

    private var passwordFile: String { directory.appendingPathComponent("gateway-password").path }

    /// The gateway's role at the server, over its Unix socket.
    var socketURL: String { url(role: role) }

    /// `role` at the server, over its Unix socket.
    func url(role: String) -> String { "postgresql://\(role)@/health?host=\(server.socketDirectory)&port=\(server.port)" }

    /// forward.conf with the gateway's role and password, reaching the server at `url`; `more` is appended (another
    /// sink's section).
    func writeConfiguration(url: String, sslMode: String, more: String = "") throws {
        try """
            [Forward]
            Gateway=\(gatewayName)
            State=\(anchorPath)

            [PostgreSQL]
            URL=\(url)
            PasswordFile=\(passwordFile)
            SSLMode=\(sslMode)
            \(more)
            """.write(toFile: configurationPath, atomically: false, encoding: .utf8)
    }

    /// Runs `cuff-forward ARGUMENTS` as nobody to its end.
    func runForwarder(_ arguments: [String]) async throws -> ExternalCommand.Output {
        let argv = PostgresServer.asAccount([Self.binary] + arguments + ["--bus", stack.bus.address])
        return try await ExternalCommand.runDetached(argv[0], Array(argv.dropFirst()), timeout: 30)
    }

    /// Starts `cuff-forward --config forward.conf` as nobody, its stderr appended to `log`.
    func startForwarder(log: String = "forward.log") throws {
        let descriptor = try stack.logWriter(log)
        defer { close(descriptor) }
        let argv = PostgresServer.asAccount([Self.binary, "--config", configurationPath, "--bus", stack.bus.address])
        forwarder = try ChildProcess(argv[0], Array(argv.dropFirst()), standardOutput: .descriptor(descriptor), standardError: .descriptor(descriptor))
    }

    /// SIGKILL: no chance to finish anything.
    func killForwarder() async throws {
        guard let forwarder else { return }
        kill(forwarder.pid, SIGKILL)
        _ = try await offCooperativePool { forwarder.waitForExit() }
    }

    /// Runs SQL on the central database as the superuser or `user`, off the cooperative pool (psql is a process).
    func query(_ sql: String, as user: (name: String, password: String)? = nil) async throws -> [String] {
        try await offCooperativePool { try self.server.psql(sql, database: "health", user: user) }
    }

    /// The central rows of this gateway that are not deleted, as `syncIdentifier|systolic|diastolic|pulse|mean|user|
    /// status|address|firmware`, sorted as Swift sorts (the server's collation may differ). Read under a SHARE lock of
    /// the table, which waits for the transactions writing to it: a change whose write-ahead log was written is seen
    /// whole (``waitUntilCentralMatchesGateway(within:except:)``).
    func centralReadings() async throws -> [String] {
        try await query(
            "BEGIN; LOCK TABLE readings IN SHARE MODE; "
                + "SELECT sync_identifier || '|' || systolic || '|' || diastolic || '|' || coalesce(pulse_rate::text, '-') || '|' || "
                + "coalesce(mean_arterial_pressure::text, '-') || '|' || coalesce(user_id::text, '-') || '|' || "
                + "coalesce(status::text, '-') || '|' || coalesce(device_address, '-') || '|' || coalesce(device_firmware, '-') FROM readings "
                + "WHERE deleted_at IS NULL AND gateway = '\(gatewayName)'; COMMIT").sorted()
    }

    /// The gateway's readings, as root reads them through cuffd, in the same form.
    func gatewayReadings() async throws -> [String] {
        try await stack.readings().map { reading in
            func number(_ key: String) -> String { (reading[key] as? Double).map { $0 == $0.rounded() ? String(Int($0)) : String($0) } ?? "-" }
            let device = reading["device"] as? [String: Any]
            func text(_ key: String) -> String { device?[key] as? String ?? "-" }
            return "\(reading["syncIdentifier"] as? String ?? "?")|\(number("systolic"))|\(number("diastolic"))|\(number("pulseRate"))|"
                + "\(number("meanArterialPressure"))|\(number("userID"))|\(number("status"))|\(text("address"))|\(text("firmware"))"
        }.sorted()
    }

    /// Waits until the central table holds exactly the gateway's readings under its name, but for those whose sync
    /// identifiers are in `others` (another gateway's rows). Checked at each write of the server's write-ahead log,
    /// which every commit makes before it is acknowledged, whether cuff-forward stores its anchor afterwards or not.
    /// The gateway's readings are read again whenever the central table holds one they lacked: a cuff may still be
    /// sending (a reading indicated after `pair` returned), and cuff-forward may forward it before this looks.
    func waitUntilCentralMatchesGateway(within timeout: Duration = testDeadline, except others: Set<String> = []) async throws {
        func gateway() async throws -> [String] { try await gatewayReadings().filter { !others.contains(String($0.prefix { $0 != "|" })) } }
        var expected = try await gateway()
        var central: [String] = []
        try await FolderWatch.wait(
            "the central rows of \(gatewayName) as the gateway's", in: [server.walFolder], within: timeout,
            detail: "central \(central) != gateway \(expected)\n\(stack.text("forward.log"))"
        ) {
            central = try await centralReadings()
            if !Set(central).isSubset(of: expected) { expected = try await gateway() }
            return central == expected
        }
    }
}
