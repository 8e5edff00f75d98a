import ArgumentParser
import DBus
import Forwarding
import MainLoop

/// Swift concurrency on the main thread only (MainLoop, as cuffd), so that an idle cuff-forward is woken by nothing:
/// libdispatch's global queues tick a 1 s pool monitor once they have a worker (docs/architecture.md).
typealias DefaultExecutorFactory = MainLoopExecutorFactory

/// `cuff-forward --config FILE [--bus ADDRESS] [--migrate]` (docs/forwarding.md).
@main
struct CuffForward: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuff-forward",
        abstract: "Forward cuffd's readings to a central PostgreSQL, an MQTT broker for Home Assistant, an HTTP receiver or InfluxDB.",
        discussion: """
            Follows cuffd's change feed over D-Bus with the rights of a read grant; never opens the store. See docs/forwarding.md and \
            docs/home-assistant.md.
            """)

    @Option(help: "The configuration file.")
    var config = "/etc/cuffd/forward.conf"

    @Option(help: "The bus cuffd is on (default: the system bus).")
    var bus: String?

    @Flag(help: "Apply the central PostgreSQL schema's migrations, then exit.")
    var migrate = false

    func run() async throws {
        let log = ForwardLog()
        let signals = TerminationSignals.exitOnDelivery()
        defer { signals.forEach { $0.cancel() } }
        do {
            let settings = try ForwardConfiguration(contentsOf: config)
            if migrate { return try Migration.run(settings, log: log) }
            let connection: DBusConnection
            do {
                connection = try DBusConnection.open(bus.map { .address($0) } ?? .system, label: "cuff-forward")
            } catch {
                throw ForwardFailure(message: "cannot connect to the bus: \(error.message)", status: 69)
            }
            // One forwarder per configured sink; the first failure that retrying cannot fix ends the program.
            let forwarders = try Forwarder.all(settings, connection: connection, log: log)
            try await withThrowingTaskGroup(of: Never.self) { group in
                for forwarder in forwarders { group.addTask { try await forwarder.run() } }
                _ = try await group.next()
            }
        } catch {
            let failure = ForwardFailure(error)
            log.log(.error, failure.message)
            throw ExitCode(failure.status)
        }
    }
}
