import BenchmarkSupport
import DBusTestSupport
import Foundation

/// A backlog of `count` readings published to an MQTT broker: cuffd on a store of them, cuff-forward's MQTT sink from
/// anchor 0 into a Mosquitto of the run's own, timed until a subscriber has every reading — beside the same payloads
/// published by `mosquitto_pub -l` (QoS 1) to the same broker, with the same subscriber, in the same run.
func benchmarkBacklog(count: Int) async throws {
    let (directory, storePath) = try backlog("mqtt-benchmark", count: count)
    defer { try? FileManager.default.removeItem(at: directory) }
    try await rememberSyntheticCuff(storePath: storePath)
    let broker = try MosquittoBroker()
    defer { broker.remove() }
    let configuration = try forwardConfiguration(in: directory, sink: "[MQTT]\nURL=mqtt://127.0.0.1:\(broker.port)")
    let payloads = directory.appendingPathComponent("payloads").path

    let forwardSeconds = try withCuffd(storePath: storePath) { bus, _ in
        let seen = try subscriber(broker, ["cuffd/+/+/state", "cuffd/+/+/history"], count: count, output: payloads)
        let started = ContinuousClock.now
        let forwarder = try ChildProcess(binaries.appendingPathComponent("cuff-forward").path, ["--config", configuration, "--bus", bus.address], standardError: .discard)
        defer { forwarder.terminate() }
        _ = seen.waitForExit()
        return seconds(since: started)
    }

    // The same payloads, one a line, published by Mosquitto's own client to the same broker: 10 000 lines per run of
    // mosquitto_pub -l, whose session was lost partway through 100 000 lines at QoS 1 ("disconnected due to out of memory" in
    // Mosquitto 2.0.11's log, RESULTS.md).
    let chunks = directory.appendingPathComponent("chunk-").path
    let seen = try subscriber(broker, ["benchmark/pub"], count: count, output: "/dev/null")
    let publishStarted = ContinuousClock.now
    let published = try ExternalCommand.run(
        "/bin/sh",
        ["-c", "split -l 10000 \(payloads) \(chunks) && for chunk in \(chunks)*; do mosquitto_pub "
            + broker.clientOptions.joined(separator: " ") + " -q 1 -t benchmark/pub -l < $chunk || exit 1; done"],
        timeout: 600)
    guard published.status == 0 else { fatalError("mosquitto_pub: \(published.standardError)") }
    _ = seen.waitForExit()
    let publishSeconds = seconds(since: publishStarted)

    let forwardRate = Double(count) / forwardSeconds, publishRate = Double(count) / publishSeconds
    print(String(format: "%d readings: cuff-forward %.0f readings/s (%.2f s), mosquitto_pub -l %.0f messages/s (%.2f s); ratio %.3f (goal ≥ 0.5)",
                 count, forwardRate, forwardSeconds, publishRate, publishSeconds, forwardRate / publishRate))
}
