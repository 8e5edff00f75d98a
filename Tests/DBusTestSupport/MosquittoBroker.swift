import Foundation

/// An MQTT broker of the test's own (Debian's `mosquitto` 2.0): a configuration in a temporary folder, listening only on
/// 127.0.0.1 at a free port, persistence in that folder (so that a subscriber's session and its queued QoS 1 messages
/// survive a restart), no limit to the messages queued for a slow subscriber (Mosquitto drops QoS 1 messages beyond
/// 1 000 by default, which a flood from mosquitto_pub reaches), and with `password`, a password file (`mosquitto_passwd`) and no anonymous clients; with `tls`,
/// TLS only, with a certificate for `localhost` signed by a CA of the test's own (``TestCertificates``), and with
/// `requireCertificate` too, requiring each client's certificate signed by that CA (`require_certificate true`).
/// `remove()` must be called in the test's teardown; it stops the broker.
public final class MosquittoBroker: MQTTTestBroker, @unchecked Sendable {
    public let directory: URL
    public let port: Int
    public static let user = "cuff-forward"
    /// The password of ``user``, when the broker has a password file.
    public let password: String?
    /// With TLS, what the broker presents; clients must ask for `localhost` and trust ``TestCertificates/authority``.
    public let certificates: TestCertificates?
    /// With `requireCertificate`: the certificate and key the test's own clients present.
    public let clientCertificate: (certificate: String, key: String)?
    private let lock = NSLock()
    private var process: ChildProcess?

    public static var available: Bool { ExternalCommand.exists("mosquitto") && ExternalCommand.exists("mosquitto_sub") }

    /// With `acl`, the text of an ACL file (mosquitto.conf(5), `acl_file`) the broker enforces; ``setACL(_:)`` changes it.
    public init(password: String? = nil, tls: Bool = false, requireCertificate: Bool = false, acl: String? = nil) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cuff-forward-mqtt-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        self.password = password
        certificates = tls ? try TestCertificates(in: directory) : nil
        clientCertificate = requireCertificate ? try certificates?.client("test-client") : nil
        var configuration = """
            listener \(port) 127.0.0.1
            persistence true
            persistence_location \(directory.path)/
            autosave_interval 1
            user root
            log_dest file \(directory.path)/mosquitto.log
            log_type all
            max_queued_messages 0
            """
        if let certificates {
            configuration += "\ncafile \(certificates.authority)\ncertfile \(certificates.certificate)\nkeyfile \(certificates.key)\n"
        }
        if requireCertificate { configuration += "require_certificate true\n" }
        if let password {
            let passwords = directory.appendingPathComponent("passwords").path
            let made = try ExternalCommand.run("mosquitto_passwd", ["-b", "-c", passwords, Self.user, password])
            guard made.status == 0 else { throw TestFailure("mosquitto_passwd: \(made.standardError)") }
            configuration += "\nallow_anonymous false\npassword_file \(passwords)\n"
        } else {
            configuration += "\nallow_anonymous true\n"
        }
        if let acl {
            try acl.write(to: aclFile, atomically: false, encoding: .utf8)
            configuration += "acl_file \(aclFile.path)\n"
        }
        try configuration.write(to: directory.appendingPathComponent("mosquitto.conf"), atomically: false, encoding: .utf8)
        try start()
    }

    /// Starts the broker and waits until it listens: Debian's mosquitto says so with READY=1 (sd_notify(3); its unit is
    /// `Type=notify`), here on a notify socket of the test's own.
    public func start() throws {
        let notify = try DatagramReceiver()
        let child = try ChildProcess("mosquitto", ["-c", directory.appendingPathComponent("mosquitto.conf").path], environment: ["NOTIFY_SOCKET": notify.path])
        lock.withLock { process = child }
        try notify.waitForReadiness(of: "mosquitto", within: testDeadline) { log }
        // mosquitto 2.0.11 says READY=1 before its main loop runs, and a SIGTERM taken in between was seen lost (no
        // longer pending, the broker serving on, a stop() right after start() waiting for ever). Only that loop
        // answers a client, so once one client has come and gone a SIGTERM ends the broker. Refused or not (a test's
        // wrong password, its ACL), the answer is the round trip.
        _ = try ExternalCommand.run("mosquitto_pub", clientOptions + ["-t", "cuffd-test/started", "-n"])
    }

    /// Stops the broker (SIGTERM: it saves its persistence) and waits for it.
    public func stop() {
        guard let child = lock.withLock({ process.take() }) else { return }
        child.terminate()
        _ = child.waitForExit()
    }

    private var aclFile: URL { directory.appendingPathComponent("acl") }

    /// Replaces the ACL file and has the running broker reload it (SIGHUP, mosquitto(8) "Signals").
    public func setACL(_ acl: String) throws {
        try acl.write(to: aclFile, atomically: false, encoding: .utf8)
        lock.withLock { process }.map { _ = kill($0.pid, SIGHUP) }
    }

    public func remove() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    public var log: String { (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? "" }

    /// The host name to ask for: the certificate's with TLS.
    public var host: String { certificates == nil ? "127.0.0.1" : "localhost" }

    public var clientOptions: [String] {
        ["-h", host, "-p", "\(port)"] + (certificates.map { ["--cafile", $0.authority] } ?? [])
            + (clientCertificate.map { ["--cert", $0.certificate, "--key", $0.key] } ?? []) + (password.map { ["-u", Self.user, "-P", $0] } ?? [])
    }
}
