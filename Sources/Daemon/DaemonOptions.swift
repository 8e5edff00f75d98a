import CuffdVersion
import DBus
import Foundation
import INIConfiguration

/// How cuffd was started: its command line and the names it looks up.
public struct DaemonOptions: Sendable {
    public var configurationPath: String
    /// Overrides the configuration's `[Store] Path`.
    public var storePath: String?
    public var bus: DBusConnection.Bus
    /// Members may administer cuffd (pair, forget, grant).
    public var administratorGroup = "cuffd-admin"
    /// Members may read and measure.
    public var readerGroup = "cuffd"
    /// What the control API reports and the store records as its source revision (debian/changelog).
    public var version = Release.version
    /// Where the control API's method calls run (``DBusConnection/runMethodCalls(on:)``): in cuffd, a thread of their
    /// own beside the main loop that runs the Gateway (docs/architecture.md, "One thread for Swift concurrency"); nil,
    /// the default executor.
    public var methodCallExecutor: (any TaskExecutor)?

    public init(configurationPath: String, storePath: String?, bus: DBusConnection.Bus) {
        self.configurationPath = configurationPath
        self.storePath = storePath
        self.bus = bus
    }

    /// The configuration file; a missing file means every default (docs/configuration.md).
    func loadConfiguration() throws(StartupError) -> Configuration {
        guard FileManager.default.fileExists(atPath: configurationPath) else { return Configuration() }
        let text: String
        do {
            text = try String(contentsOfFile: configurationPath, encoding: .utf8)
        } catch {
            throw .configuration(ConfigurationError(file: configurationPath, line: 0, message: "cannot be read: \(error.localizedDescription)"))
        }
        do {
            return try Configuration(parsing: text, file: configurationPath)
        } catch {
            throw .configuration(error)
        }
    }
}
