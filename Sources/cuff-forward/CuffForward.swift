import ArgumentParser
import DBus
import Forwarding

/// `cuff-forward --config FILE [--bus ADDRESS] [--migrate]` (docs/forwarding.md).
@main
struct CuffForward: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuff-forward",
        abstract: "Forward cuffd's readings to a central PostgreSQL, exactly once in effect.",
        discussion: "Follows cuffd's change feed over D-Bus with the rights of a read grant; never opens the store. See docs/forwarding.md.")

    @Option(help: "The configuration file.")
    var config = "/etc/cuffd/forward.conf"

    @Option(help: "The bus cuffd is on (default: the system bus).")
    var bus: String?

    @Flag(help: "Apply the central schema's migrations, then exit.")
    var migrate = false

    func run() async throws {
        let log = ForwardLog()
        do {
            let settings = try ForwardConfiguration(contentsOf: config)
            if migrate { return try Migration.run(settings, log: log) }
            let connection: DBusConnection
            do {
                connection = try DBusConnection.open(bus.map { .address($0) } ?? .system, label: "cuff-forward")
            } catch {
                throw ForwardFailure(message: "cannot connect to the bus: \(error.message)", status: 69)
            }
            try await Forwarder(configuration: settings, connection: connection, log: log).run()
        } catch {
            let failure = ForwardFailure(error)
            log.log(.error, failure.message)
            throw ExitCode(failure.status)
        }
    }
}
