// cuff-forward's MQTT sink (docs/home-assistant.md), two figures against a Mosquitto of the run's own on loopback:
//
//   mqtt-benchmark [backlog] [READINGS]     a backlog published, beside mosquitto_pub -l (Backlog.swift; 100 000)
//   mqtt-benchmark latency [READINGS] [RATE]  a reading received by cuffd → the message seen by a subscriber, at a
//                                             steady rate, beside mosquitto_pub's own latency (Latency.swift; 600 at 10/s)
//
// Run (root): swift build -c release && .build/release/mqtt-benchmark …
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first.flatMap { Int($0) == nil ? arguments.removeFirst() : nil } ?? "backlog"
switch mode {
case "backlog":
    try await benchmarkBacklog(count: arguments.first.flatMap { Int($0) } ?? 100_000)
case "latency":
    try benchmarkLatency(count: arguments.first.flatMap { Int($0) } ?? 600, rate: arguments.dropFirst().first.flatMap { Double($0) } ?? 10)
default:
    FileHandle.standardError.write(Data("usage: mqtt-benchmark [backlog] [READINGS] | latency [READINGS] [RATE]\n".utf8))
    exit(64)
}
