import DBus
import DBusTestSupport
import Foundation

/// The third-party peers the interoperability tests run, and our echo service they talk to.
enum InteropPeers {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Interop")
    static func script(_ name: String) -> String { scripts.appendingPathComponent(name).path }

    /// A private bus with our `EchoService` exported under its well-known name.
    static func echoService() async throws -> (PrivateBus, DBusConnection) {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), label: "echo", callTimeout: testDeadline)
        _ = try await server.requestName(EchoService.name)
        await server.export([EchoService.interface], at: EchoService.path)
        return (bus, server)
    }

    /// busctl's own call timeout (25 s) is raised to the tests' deadline: it only bounds a hang.
    static func busctl(_ bus: PrivateBus, _ arguments: [String]) async throws -> ExternalCommand.Output {
        try await ExternalCommand.runDetached("busctl", ["--address=\(bus.address)", "--timeout=\(testDeadline.components.seconds)"] + arguments)
    }
}
