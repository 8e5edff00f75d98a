import Foundation

/// A RabbitMQ node of the test's own (Debian's `rabbitmq-server` 3.10) with only its MQTT plugin, which speaks MQTT 3.1
/// and 3.1.1 and not 5 (docs/reference/MQTT.md §2). Everything is in a temporary folder: `rabbitmq-env.conf` (so that
/// /etc/rabbitmq's is not read), `rabbitmq.conf`, `advanced.config`, `enabled_plugins`, the Mnesia database (where the
/// retained messages are kept), the log, and the Erlang cookie, found through `HOME`. The node has a name of its own,
/// no AMQP listener, MQTT on 127.0.0.1 at a free port, its distribution port on 127.0.0.1 and its own epmd on a free
/// port on 127.0.0.1 (`ERL_EPMD_PORT`), so it meets neither the system's `rabbitmq-server` service nor its epmd
/// (4369). The user ``user`` logs in with ``password``; no anonymous clients. Like ``PostgresServer``'s server it runs
/// as `nobody` under root (RabbitMQ's `/usr/sbin` wrapper would switch to the `rabbitmq` user; its own script in
/// `/usr/lib/rabbitmq/bin` is started instead). `remove()` must be called in the test's teardown: it stops the node
/// (SIGTERM; SIGKILL to its process group after 30 s) and its epmd.
public final class RabbitMQBroker: MQTTTestBroker, @unchecked Sendable {
    public static let user = "cuff-forward"
    public let password: String? = "rabbit-secret"
    public let host = "127.0.0.1"
    public let port: Int
    public let directory: URL
    /// The epmd the node registers with, and which `remove()` stops.
    private let epmdPort: Int
    private let nodeName: String
    private let lock = NSLock()
    private var process: ChildProcess?

    static let server = "/usr/lib/rabbitmq/bin/rabbitmq-server"

    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: server) && ExternalCommand.exists("epmd") && ExternalCommand.exists("mosquitto_sub")
    }

    /// Whether the installed RabbitMQ speaks MQTT 3.1.1 only: MQTT 5 came with 3.13 (docs/reference/MQTT.md §2), so
    /// Debian 12's 3.10 does and Debian 13's 4.0 does not.
    public static var speaksOnlyMQTT311: Bool {
        guard let query = try? ExternalCommand.run("dpkg-query", ["-W", "-f=${Version}", "rabbitmq-server"]), query.status == 0 else { return false }
        let release = query.standardOutput.split(separator: "-").first?.split(separator: ".").compactMap { Int($0) } ?? []
        guard release.count >= 2 else { return false }
        return (release[0], release[1]) < (3, 13)
    }

    /// Writes the node's folder, starts it and waits until it is ready (it takes about 8 s).
    public init() throws {
        let name = "cuffd-test-\(UUID().uuidString.prefix(8).lowercased())"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cuff-forward-\(name)")
        nodeName = "\(name)@localhost"
        // Three ports, held together so that they differ.
        let sockets = try (0..<3).map { _ in try boundLoopbackSocket() }
        sockets.forEach { close($0.descriptor) }
        (port, epmdPort) = (sockets[0].port, sockets[1].port)
        let distributionPort = sockets[2].port
        let files = [
            "rabbitmq-env.conf": """
                NODENAME=\(nodeName)
                CONFIG_FILE=\(path("rabbitmq.conf"))
                ADVANCED_CONFIG_FILE=\(path("advanced.config"))
                ENABLED_PLUGINS_FILE=\(path("enabled_plugins"))
                MNESIA_BASE=\(path("mnesia"))
                LOG_BASE=\(path("log"))
                ERL_EPMD_PORT=\(epmdPort)
                ERL_EPMD_ADDRESS=127.0.0.1

                """,
            "rabbitmq.conf": """
                listeners.tcp = none
                mqtt.listeners.tcp.1 = 127.0.0.1:\(port)
                mqtt.allow_anonymous = false
                default_user = \(Self.user)
                default_pass = \(password!)

                """,
            "advanced.config": """
                [{kernel, [{inet_dist_use_interface, {127,0,0,1}}, {inet_dist_listen_min, \(distributionPort)}, {inet_dist_listen_max, \(distributionPort)}]}].

                """,
            "enabled_plugins": "[rabbitmq_mqtt].\n",
            ".erlang.cookie": UUID().uuidString,
        ]
        for folder in ["", "mnesia", "log"] {
            try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: false)
            try PostgresServer.giveToAccount(path(folder))
        }
        for (file, text) in files {
            try text.write(toFile: path(file), atomically: false, encoding: .utf8)
            try PostgresServer.giveToAccount(path(file))
        }
        // Erlang refuses a cookie others can read.
        guard chmod(path(".erlang.cookie"), 0o400) == 0 else { throw TestFailure("cannot chmod the Erlang cookie") }
        do {
            try start()
        } catch {
            remove()
            throw error
        }
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Starts the node and waits for its readiness: READY=1 (sd_notify(3); Debian's unit is `Type=notify`), which
    /// RabbitMQ sends once it has booted, its plugins' listeners included, here on a notify socket of the test's own.
    private func start() throws {
        let notify = try DatagramReceiver()
        try PostgresServer.giveToAccount(notify.path)
        // setsid: the node's processes in a group of their own, which `stop()` can kill whole if SIGTERM is not enough.
        let argv = PostgresServer.asAccount([
            "/usr/bin/setsid", "/usr/bin/env", "HOME=\(directory.path)", "NOTIFY_SOCKET=\(notify.path)",
            "RABBITMQ_CONF_ENV_FILE=\(path("rabbitmq-env.conf"))", Self.server,
        ])
        let child = try ChildProcess(argv[0], Array(argv.dropFirst()), standardError: .discard)
        lock.withLock { process = child }
        try notify.waitForReadiness(of: "rabbitmq-server", within: testDeadline) { String(log.suffix(2000)) }
    }

    /// Stops the node — SIGTERM, which its script turns into an orderly shutdown (about 2.5 s); SIGKILL to the process
    /// group if it has not ended 30 s later — and then its epmd.
    private func stop() {
        guard let child = lock.withLock({ process.take() }) else { return }
        kill(child.pid, SIGTERM)
        child.waitForExit(killingAfter: 30, target: -child.pid)
        _ = try? ExternalCommand.run("/usr/bin/env", ["ERL_EPMD_PORT=\(epmdPort)", "epmd", "-kill"], timeout: 10)
    }

    public func remove() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The node's log, and the folder it is in.
    public var log: String { (try? String(contentsOfFile: path("log/\(nodeName).log"), encoding: .utf8)) ?? "" }
    public var logFolder: String { path("log") }

    public var clientOptions: [String] { ["-V", "mqttv311", "-h", host, "-p", "\(port)", "-u", Self.user, "-P", password!] }
}
