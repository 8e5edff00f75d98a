import DBus
import DBusTestSupport
import Foundation

/// Method-call round trips and signal throughput of the Swift D-Bus layer on a private bus, side
/// by side with python dbus-fast and busctl as anchors, all measured in this one run.
///
/// Run: `swift run -c release dbus-benchmark [CALLS] [SIGNALS]` (needs python3 with dbus-fast).
@main
struct DBusBenchmark {
    static let interop = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/Interop")

    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let calls = arguments.first ?? 20_000
        let signals = arguments.dropFirst().first ?? 100_000
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), label: "server")
        let client = try DBusConnection.open(.address(bus.address), label: "client")
        _ = try await server.requestName(EchoService.name)
        await server.export([EchoService.interface], at: EchoService.path)
        let (peer, peerOutput) = try ExternalCommand.start("python3", [interop.appendingPathComponent("echo_peer.py").path, "--address", bus.address, "--name", "org.cuffd.Test.PythonPeer"])
        defer { peer.terminate() }
        _ = peerOutput.availableData  // READY

        print("D-Bus on a private dbus-daemon: \(calls) sequential Echo(u) calls, \(signals) Tick(u, ay[16]) signals")
        var rows: [(String, Double)] = []
        rows.append(("calls: Swift client → Swift service", try await swiftCalls(client, to: EchoService.name, count: calls)))
        rows.append(("calls: Swift client → dbus-fast service", try await swiftCalls(client, to: "org.cuffd.Test.PythonPeer", count: calls)))
        rows.append(("calls: dbus-fast client → Swift service", try pythonRate("--bench", calls, destination: EchoService.name, bus: bus)))
        rows.append(("calls: dbus-fast client → dbus-fast service", try pythonRate("--bench", calls, destination: "org.cuffd.Test.PythonPeer", bus: bus)))
        rows.append(("calls: busctl call, one process per call", try busctlCalls(count: min(calls, 300), bus: bus)))
        rows.append(("signals: Swift service → Swift client", try await swiftSignals(client, from: EchoService.name, count: signals)))
        rows.append(("signals: dbus-fast service → Swift client", try await swiftSignals(client, from: "org.cuffd.Test.PythonPeer", count: signals)))
        rows.append(("signals: Swift service → dbus-fast client", try pythonRate("--signals", signals, destination: EchoService.name, bus: bus)))
        rows.append(("signals: dbus-fast service → dbus-fast client", try pythonRate("--signals", signals, destination: "org.cuffd.Test.PythonPeer", bus: bus)))

        let callAnchor = rows[3].1
        let signalAnchor = rows[8].1
        print("| path | per second | ÷ dbus-fast ↔ dbus-fast |")
        print("|---|---|---|")
        for (name, rate) in rows {
            let anchor = name.hasPrefix("calls") ? callAnchor : signalAnchor
            print("| \(name) | \(Int(rate.rounded())) | \(String(format: "%.2f", rate / anchor)) |")
        }
        server.close()
        client.close()
    }

    static func swiftCalls(_ client: DBusConnection, to destination: String, count: Int) async throws -> Double {
        _ = try await client.call(destination, EchoService.path, EchoService.interfaceName, "Echo", [.variant(.uint32(0))])
        let start = ContinuousClock.now
        for index in 0..<count {
            let reply = try await client.call(destination, EchoService.path, EchoService.interfaceName, "Echo", [.variant(.uint32(UInt32(index)))])
            guard reply == [.variant(.uint32(UInt32(index)))] else { throw BenchmarkError("wrong echo \(reply)") }
        }
        return Double(count) / seconds(ContinuousClock.now - start)
    }

    /// Subscribes, asks the service to emit `count` Ticks, and times until the last one arrived.
    static func swiftSignals(_ client: DBusConnection, from destination: String, count: Int) async throws -> Double {
        let ticks = try await client.signals(matching: MatchRule(interface: EchoService.interfaceName, member: "Tick"))
        let start = ContinuousClock.now
        let emitter = Task { try await client.call(destination, EchoService.path, EchoService.interfaceName, "EmitSignals", [.uint32(UInt32(count)), .bytes(Array(repeating: 7, count: 16))], timeout: .seconds(120)) }
        var received = 0
        for await tick in ticks {
            guard try tick.argument(0, as: UInt32.self) == UInt32(received) else { throw BenchmarkError("signal out of order") }
            received += 1
            if received == count { break }
        }
        let elapsed = ContinuousClock.now - start
        _ = try await emitter.value
        return Double(count) / seconds(elapsed)
    }

    static func pythonRate(_ mode: String, _ count: Int, destination: String, bus: PrivateBus) throws -> Double {
        let output = try ExternalCommand.run("python3", [
            interop.appendingPathComponent("echo_client.py").path, "--address", bus.address, "--destination", destination,
            "--path", EchoService.path.text, "--interface", EchoService.interfaceName, mode, String(count),
        ], timeout: 300)
        guard output.status == 0, let line = output.standardOutput.split(separator: "\n").last(where: { $0.contains("_per_second=") }),
              let rate = Double(line.split(separator: "=")[1]) else {
            throw BenchmarkError("echo_client.py \(mode) failed: \(output.standardError)")
        }
        return rate
    }

    static func busctlCalls(count: Int, bus: PrivateBus) throws -> Double {
        let start = ContinuousClock.now
        for index in 0..<count {
            let output = try ExternalCommand.run("busctl", ["--address=\(bus.address)", "call", EchoService.name, EchoService.path.text, EchoService.interfaceName, "Echo", "v", "u", String(index)])
            guard output.status == 0 else { throw BenchmarkError("busctl failed: \(output.standardError)") }
        }
        return Double(count) / seconds(ContinuousClock.now - start)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
