import Foundation

/// A `dbus-daemon` of the test's own on a private unix socket, so no test touches the machine's
/// system or session bus. The default policy lets every connection own any name and call
/// anything; `policy` replaces it (for tests of cuffd's own bus policy file).
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    public let directory: URL
    private let process: ChildProcess

    public static let permissivePolicy = """
        <policy context="default">
          <allow user="*"/>
          <allow own="*"/>
          <allow send_type="method_call"/>
          <allow send_type="signal"/>
          <allow send_type="method_return"/>
          <allow send_type="error"/>
          <allow receive_type="method_call"/>
          <allow receive_type="signal"/>
          <allow receive_type="method_return"/>
          <allow receive_type="error"/>
        </policy>
        """

    public init(policy: String = PrivateBus.permissivePolicy) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cuffd-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              \(policy)
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        // dbus-daemon prints its address once it listens (`--print-address`): the socket file
        // alone appears at bind(), a moment before connections are accepted. It also warns on
        // stderr that it cannot raise its fd limit unprivileged; that is silenced.
        let ready = Pipe()
        process = try ChildProcess(
            "dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--nosyslog", "--print-address=1"],
            standardOutput: .descriptor(ready.fileHandleForWriting.fileDescriptor), standardError: .discard)
        try ready.fileHandleForWriting.close()
        address = "unix:path=\(socket)"
        // Blocks until the address line, or end of file if dbus-daemon exits first.
        let printed = String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self)
        guard printed.hasPrefix("unix:") else {
            throw PrivateBusError(message: "dbus-daemon did not start (config \(config.path))")
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the daemon: every connection sees its bus go away.
    public func stop() {
        process.terminate()
    }
}

public struct PrivateBusError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
