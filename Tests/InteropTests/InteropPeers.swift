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
        let server = try DBusConnection.open(.address(bus.address), label: "echo")
        _ = try await server.requestName(EchoService.name)
        await server.export([EchoService.interface], at: EchoService.path)
        return (bus, server)
    }

    static func busctl(_ bus: PrivateBus, _ arguments: [String]) async throws -> ExternalCommand.Output {
        try await ExternalCommand.runDetached("busctl", ["--address=\(bus.address)"] + arguments)
    }
}
