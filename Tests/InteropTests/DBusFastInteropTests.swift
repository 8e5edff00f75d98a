import DBus
import DBusTestSupport
import Foundation
import Testing

/// Our layer against python dbus-fast, an independent implementation of the wire protocol.
@Suite("Interop: python dbus-fast")
struct DBusFastInteropTests {
    @Test("A dbus-fast client's every type survives our Echo, and our signals reach it in order")
    func dbusFastClientToUs() async throws {
        try #require(ExternalCommand.exists("python3"))
        let (bus, server) = try await InteropPeers.echoService()
        defer { server.close() }
        let common = ["--address", bus.address, "--destination", EchoService.name, "--path", EchoService.path.text, "--interface", EchoService.interfaceName]
        let types = try await ExternalCommand.runDetached("python3", [InteropPeers.script("echo_client.py")] + common)
        #expect(types.status == 0, "\(types.standardOutput)\(types.standardError)")
        let lines = types.standardOutput.split(separator: "\n")
        #expect(lines.count >= 20, "one line per signature")
        #expect(lines.allSatisfy { $0.hasPrefix("ok ") }, "\(lines.filter { !$0.hasPrefix("ok ") })")

        let signals = try await ExternalCommand.runDetached("python3", [InteropPeers.script("echo_client.py")] + common + ["--signals", "2000"])
        #expect(signals.status == 0, "\(signals.standardError)")
        #expect(signals.standardOutput.contains("signals_per_second="))
    }

    @Test("Every value our layer marshals survives a dbus-fast service's Echo, and its signals reach our streams in order")
    func usToDBusFastService() async throws {
        try #require(ExternalCommand.exists("python3"))
        let bus = try PrivateBus()
        let (peer, output) = try ExternalCommand.start("python3", [InteropPeers.script("echo_peer.py"), "--address", bus.address])
        defer { peer.terminate() }
        // Read off the cooperative pool: the peer's first line may take a while on a busy machine.
        #expect(String(decoding: try await offCooperativePool { output.availableData }, as: UTF8.self).contains("READY"))
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { client.close() }

        for value in try ValueSamples.all() {
            let reply = try await client.call(EchoService.name, EchoService.path, EchoService.interfaceName, "Echo", [.variant(value)])
            #expect(reply == [.variant(value)], "\(value.type.signature)")
        }
        let ticks = StreamRecorder(try await client.signals(matching: MatchRule(sender: EchoService.name, interface: EchoService.interfaceName, member: "Tick")))
        _ = try await client.call(EchoService.name, EchoService.path, EchoService.interfaceName, "EmitSignals", [.uint32(300), .bytes([9, 8, 7])])
        var indexes: [UInt32] = []
        while indexes.count < 300 {
            let tick = try await ticks.next { _ in true }
            indexes.append(try tick.argument(0))
            #expect(try tick.argument(1, as: [UInt8].self) == [9, 8, 7])
        }
        #expect(indexes == Array(0..<300))
    }
}
