import BenchmarkSupport
import DBus
import DBusTestSupport
import Foundation
import Synchronization

/// A reading received by cuffd → its message seen by a subscriber, `count` readings at `rate` a second, on loopback
/// (goal: p99 ≤ 50 ms); beside it, in the same run, the broker's own share: `mosquitto_pub -l` publishing a line at
/// the same rate to the same broker, seen by the same kind of subscriber.
///
/// One clock, CLOCK_REALTIME of this machine: the start is the reading's `time` as cuffd's `Readings` gives it, to the
/// microsecond — for a reading without the cuff's time stamp, the moment cuffd received its indication (docs/gateway.md),
/// taken before the store commits it, so the figure is an upper bound of commit → seen; the end is `mosquitto_sub`'s
/// `%U`, taken when the message arrives. Between them, `dbus-monitor --profile` stamps each `ReadingStored`, which cuffd
/// sends once the store has committed the reading: the chain split into cuffd's commit and what follows it.
func benchmarkLatency(count: Int, rate: Double) throws {
    let directory = try temporaryDirectory("mqtt-latency")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker()
    defer { broker.remove() }
    let storePath = directory.appendingPathComponent("health.sqlite").path
    let configuration = try forwardConfiguration(in: directory, sink: "[MQTT]\nURL=mqtt://127.0.0.1:\(broker.port)")
    let messages = directory.appendingPathComponent("messages").path
    let deadline = Double(count) / rate + 60

    let signals = directory.appendingPathComponent("signals").path
    let forwarded = try withCuffd(storePath: storePath, scenario: steadyCuff(count: count, rate: rate)) { bus, _ in
        let monitor = try signalMonitor(bus, output: signals)
        defer { monitor.terminate() }
        let seen = try subscriber(broker, ["cuffd/+/+/state", "cuffd/+/+/history"], count: count, format: "%U %p", output: messages)
        let forwarder = try ChildProcess(binaries.appendingPathComponent("cuff-forward").path, ["--config", configuration, "--bus", bus.address], standardError: .discard)
        defer { forwarder.terminate() }
        try waitForExit(seen, within: deadline, "the subscriber saw fewer than \(count) readings")
        let received = try readingTimes(bus)
        return try arrivals(messages).map { identifier, arrival in
            guard let time = received[identifier] else { throw BenchmarkFailure("no reading \(identifier) in cuffd") }
            return (received: time, seen: arrival)
        }
    }
    // One cuff, one reading at a time: the nth ReadingStored is the nth reading cuffd received.
    let stored = try String(contentsOfFile: signals, encoding: .utf8).split(separator: "\n")
        .filter { $0.hasPrefix("sig") && $0.hasSuffix("ReadingStored") }.compactMap { Double($0.split(separator: "\t")[1]) }
    let inOrder = forwarded.sorted { $0.received < $1.received }
    guard stored.count == inOrder.count else { throw BenchmarkFailure("\(stored.count) ReadingStored signals for \(inOrder.count) readings") }

    let published = try publisherLatencies(broker, count: count, rate: rate, output: directory.appendingPathComponent("published").path, deadline: deadline)
    func figures(_ latencies: [Double]) -> String {
        let sorted = latencies.sorted()
        func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))] * 1000 }
        return String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", at(0.5), at(0.99), sorted.last! * 1000)
    }
    print(String(format: "%d readings at %.0f/s\n  cuffd's receipt → subscriber: %@ (goal p99 ≤ 50 ms)\n"
                     + "    of which receipt → ReadingStored (cuffd's commit): %@\n    and ReadingStored → subscriber (cuff-forward, the broker): %@\n"
                     + "  mosquitto_pub -l → subscriber, the same broker: %@",
                 inOrder.count, rate, figures(inOrder.map { $0.seen - $0.received }), figures(zip(inOrder, stored).map { $1 - $0.received }),
                 figures(zip(inOrder, stored).map { $0.seen - $1 }), figures(published)))
}

/// `dbus-monitor --profile` on cuffd's `ReadingStored`, one line per signal with the time it saw it, into `output`.
func signalMonitor(_ bus: PrivateBus, output: String) throws -> ChildProcess {
    let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    defer { close(descriptor) }
    return try ChildProcess(
        "dbus-monitor", ["--address", bus.address, "--profile", "type='signal',interface='org.cuffd.Gateway1',member='ReadingStored'"],
        standardOutput: .descriptor(descriptor))
}

/// A bonded cuff that, once cuffd subscribed, indicates `count` readings `1 / rate` s apart, from 6 s on (cuff-forward
/// and the subscriber are ready by then). Without the cuff's time stamp, so that each reading's time is cuffd's
/// receipt; each with other bytes, because cuffd recognizes a reading without a time stamp by its bytes
/// (docs/gateway.md, "Dedupe"): systolic 90–239 and diastolic 50–79 mmHg (SFLOAT, exponent 0), distinct up to 4 500.
func steadyCuff(count: Int, rate: Double) -> Data {
    indicatingCuffScenario((0..<count).map { index in
        let systolic = 90 + index % 150, diastolic = 50 + index / 150 % 30, mean = (systolic + 2 * diastolic) / 3, pulse = 60 + index % 40
        // Flags 0x04: mmHg, pulse rate present, no time stamp, no user, no status.
        return (6 + Double(index) / rate, [0x04] + [systolic, diastolic, mean, pulse].flatMap { [$0 & 0xFF, $0 >> 8] })
    })
}

/// Each reading's sync identifier and the Unix time its message arrived, from mosquitto_sub's `%U %p` lines.
func arrivals(_ path: String) throws -> [(String, Double)] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let arrival = Double(parts[0]),
              let message = try JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any],
              let identifier = message["sync_identifier"] as? String
        else { throw BenchmarkFailure("a line that is no reading: \(line.prefix(100))") }
        return (identifier, arrival)
    }
}

/// Every reading's `time` by sync identifier, through cuffd's `Readings` (docs/dbus-api.md), oldest first, a page of
/// 1 000 at a time.
func readingTimes(_ bus: PrivateBus) throws -> [String: Double] {
    let outcome = Mutex<Result<[String: Double], any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached { [address = bus.address] in
        do {
            let connection = try DBusConnection.open(.address(address), label: "mqtt-benchmark")
            defer { connection.close() }
            var times: [String: Double] = [:]
            var after = ""
            while true {
                let filter: DBusProperties = ["limit": DBusVariant(UInt32(1000)), "after": DBusVariant(after)]
                let reply = try await connection.call("org.cuffd.Gateway1", "/org/cuffd/Gateway1", "org.cuffd.Gateway1", "Readings", [filter.dbusValue])
                let page = try reply.first?.decode([DBusProperties].self) ?? []
                for reading in page {
                    if let identifier = try reading.property("syncIdentifier", as: String.self), let time = try reading.property("time", as: Double.self) {
                        times[identifier] = time
                    }
                }
                guard page.count == 1000, let cursor = try page.last?.property("cursor", as: String.self) else { break }
                after = cursor
            }
            outcome.withLock { $0 = .success(times) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}

/// `mosquitto_pub -q 1 -l`, fed one line a `1 / rate` s holding the Unix time it was written, to the broker; each
/// line's arrival at a subscriber less that time.
func publisherLatencies(_ broker: MosquittoBroker, count: Int, rate: Double, output: String, deadline: Double) throws -> [Double] {
    let seen = try subscriber(broker, ["benchmark/latency"], count: count, format: "%U %p", output: output)
    let publisher = Process()
    publisher.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
    publisher.arguments = broker.clientOptions + ["-q", "1", "-t", "benchmark/latency", "-l"]
    let lines = Pipe()
    publisher.standardInput = lines
    try publisher.run()
    // Its session opened before the first line, as cuff-forward's is before the first reading.
    let start = ContinuousClock.now + .seconds(1)
    for index in 0..<count {
        Thread.sleep(until: start + .seconds(Double(index) / rate))
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        lines.fileHandleForWriting.write(Data("\(now.tv_sec).\(String(format: "%09ld", now.tv_nsec))\n".utf8))
    }
    try waitForExit(seen, within: deadline, "the subscriber saw fewer than \(count) of mosquitto_pub's lines")
    try lines.fileHandleForWriting.close()
    publisher.waitUntilExit()
    return try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map { line in
        let parts = line.split(separator: " ")
        guard parts.count == 2, let arrival = Double(parts[0]), let sent = Double(parts[1]) else { throw BenchmarkFailure("an odd line: \(line)") }
        return arrival - sent
    }
}

/// Waits for `child` to exit, at most `seconds`; then ends it and fails with `what`.
func waitForExit(_ child: ChildProcess, within seconds: Double, _ what: String) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while child.isRunning {
        guard Date() < deadline else {
            child.terminate()
            throw BenchmarkFailure(what)
        }
        Thread.sleep(forTimeInterval: 0.1)
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Thread {
    /// Sleeps until `instant` of the continuous clock (at once when it has passed).
    static func sleep(until instant: ContinuousClock.Instant) {
        let left = instant - .now
        guard left > .zero else { return }
        Thread.sleep(forTimeInterval: Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
    }
}
