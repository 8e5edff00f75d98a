import ArgumentParser
import CuffdVersion
import Foundation
import Daemon
import DBus
import Logging
import MainLoop
import ServiceLifecycle
import SystemdSupport
import TerminalEscaping

/// Swift concurrency on one thread, the main one, instead of libdispatch's pool, so that nothing wakes an
/// idle cuffd (MainLoop; docs/architecture.md, "One thread for Swift concurrency"). The compiler's `async
/// main` installs the executors of the factory this name denotes at the top level of the main module.
typealias DefaultExecutorFactory = MainLoopExecutorFactory

/// `cuffd`: the Bluetooth LE blood-pressure gateway daemon (docs/cuffd.md).
@main
struct Cuffd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cuffd",
        abstract: "Collect blood-pressure readings from Bluetooth LE cuffs through BlueZ into a health store.",
        discussion: """
            Runs as the systemd service cuffd.service (Type=notify). Owns org.cuffd.Gateway1 on the bus; cuffctl \
            talks to it. Exit status: 0 after a clean shutdown (SIGTERM, SIGINT); 64 usage; 69 the bus is \
            unreachable or BlueZ cannot be used; 73 the store cannot be opened; 75 another cuffd owns the name, or \
            (--rewrite-store) the store is open in another process; \
            77 the bus policy forbids owning the name; 78 the configuration file is wrong (the line is named).
            """,
        version: Release.version
    )

    @Option(help: "The configuration file (docs/configuration.md).")
    var config = "/etc/cuffd/cuffd.conf"

    @Option(help: "The SQLite store, overriding [Store] Path.")
    var store: String?

    @Option(help: "The bus address (default: the system bus; DBUS_SYSTEM_BUS_ADDRESS is honoured).")
    var bus: String?

    @Flag(help: "Rewrite the store with 1 KiB pages, as a new store is made (fewer bytes written per commit), then exit. cuffd must be stopped; needs free space for a copy of the store.")
    var rewriteStore = false

    @Option(help: .hidden)
    var adminGroup = "cuffd-admin"

    @Option(help: .hidden)
    var readerGroup = "cuffd"

    @Option(help: .hidden)
    var journalSocket: String?

    func run() async throws {
        LogDestination.bootstrap(identifier: "cuffd", journalSocket: journalSocket)
        let logger = Logger(label: "cuffd")
        let notifier = ServiceNotifier()
        var options = DaemonOptions(configurationPath: config, storePath: store, bus: bus.map { .address($0) } ?? .system)
        if rewriteStore {
            do {
                print("cuffd: \(try Daemon.rewriteStore(options))")
                return
            } catch {
                FileHandle.standardError.write(Data("cuffd: \(TerminalText.escaped(error.description))\n".utf8))
                throw ExitCode(error.exitStatus)
            }
        }
        options.administratorGroup = adminGroup
        options.readerGroup = readerGroup
        // The control API's calls on a thread of their own, less urgent than the main loop's commits: at the niceness
        // of the store's reading threads (Benchmarks/RESULTS.md, "Reads beside commits": 5 served more calls, and a
        // cuff's readings later).
        options.methodCallExecutor = BackgroundLoop(niceness: 10)
        let daemon: Daemon
        do {
            daemon = try await Daemon.start(options, notifier: notifier, logger: logger)
        } catch {
            // Standard error reaches a person at a terminal and, under systemd, the journal: escaped as every log line is.
            FileHandle.standardError.write(Data("cuffd: \(TerminalText.escaped(error.description))\n".utf8))
            throw ExitCode(error.exitStatus)
        }
        let group = ServiceGroup(configuration: .init(
            services: [daemon], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let failure as DaemonFailure {
            FileHandle.standardError.write(Data("cuffd: \(TerminalText.escaped(failure.description))\n".utf8))
            throw ExitCode(failure.exitStatus)
        }
    }
}
