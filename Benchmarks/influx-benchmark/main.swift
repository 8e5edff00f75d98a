// cuff-forward's HTTP sink into InfluxDB 1.x (docs/forwarding.md, "InfluxDB"): a backlog of READINGS (100 000) in a
// store, cuffd on it, and cuff-forward with only `[HTTP] Format=influx` into an influxd of the run's own on loopback
// (InfluxServer), timed until cuff-forward has logged every reading forwarded — each page after InfluxDB's 204 —;
// beside curl posting the same points, read back from InfluxDB as line protocol, 10 000 lines a POST (cuff-forward's
// page), to another database of the same server in the same run.
//
// Run (root): swift build -c release && .build/release/influx-benchmark [READINGS]
import BenchmarkSupport
import DBusTestSupport
import Foundation

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000
let (directory, storePath) = try backlog("influx-benchmark", count: count)
defer { try? FileManager.default.removeItem(at: directory) }
let folder = directory.appendingPathComponent("influxdb")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
let influx = try await InfluxServer(in: folder)
defer { influx.stop() }
let configuration = try forwardConfiguration(in: directory, sink: "[HTTP]\nURL=\(influx.writeURL)\nFormat=influx")

let (forwardSeconds, forwardCPU, cuffdCPU) = try withCuffd(storePath: storePath) { bus, cuffd in
    let cuffdBefore = cpuSeconds(cuffd.pid)
    let log = Pipe()
    let started = ContinuousClock.now
    let forwarder = try ChildProcess(
        binaries.appendingPathComponent("cuff-forward").path, ["--config", configuration, "--bus", bus.address],
        standardError: .descriptor(log.fileHandleForWriting.fileDescriptor))
    try log.fileHandleForWriting.close()
    defer { forwarder.terminate() }
    // Its lines `forwarded N readings and M deletions to InfluxDB; anchor A`, summed.
    var text = "", forwarded = 0
    while forwarded < count {
        let chunk = log.fileHandleForReading.availableData
        guard !chunk.isEmpty else { fatalError("cuff-forward ended before forwarding every reading:\n\(text)") }
        text += String(decoding: chunk, as: UTF8.self)
        forwarded = text.split(separator: "\n").compactMap { line in
            line.contains(" readings and ") ? line.range(of: "forwarded ").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) } : nil
        }.reduce(0, +)
    }
    return (seconds(since: started), cpuSeconds(forwarder.pid), cpuSeconds(cuffd.pid) - cuffdBefore)
}
guard try influx.count("systolic", in: "blood_pressure") == count else { fatalError("InfluxDB holds other than \(count) readings") }

// The same points as line protocol, from InfluxDB itself, in files of 10 000 lines, posted one after the other by curl.
let columns = ["time", "device", "gateway", "user_id", "systolic", "diastolic", "mean", "pulse", "status", "excluded", "sync_identifier", "sync_version"]
let rows = try influx.query("SELECT \(columns.dropFirst().joined(separator: ",")) FROM blood_pressure", epoch: "ns")
var files: [String] = []
for (index, start) in stride(from: 0, to: rows.count, by: 10_000).enumerated() {
    let lines = rows[start..<min(start + 10_000, rows.count)].map { row in
        let value = Dictionary(uniqueKeysWithValues: zip(columns, row))
        let tags = ["device", "gateway", "user_id"].compactMap { key in value[key].flatMap { $0 is NSNull ? nil : "\(key)=\($0)" } }
        var fields = ["systolic", "diastolic", "mean", "pulse"].compactMap { key in value[key].flatMap { $0 is NSNull ? nil : "\(key)=\($0)" } }
        fields += ["status=\(value["status"]!)i", "excluded=\"\(value["excluded"]!)\"", "sync_identifier=\"\(value["sync_identifier"]!)\"", "sync_version=\(value["sync_version"]!)i"]
        return "blood_pressure,\(tags.joined(separator: ",")) \(fields.joined(separator: ",")) \(value["time"]!)"
    }
    let file = directory.appendingPathComponent("points-\(index).txt").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
    files.append(file)
}
_ = try influx.query("CREATE DATABASE copy", post: true)
let postStarted = ContinuousClock.now
for file in files {
    let posted = try ExternalCommand.run("curl", ["-sS", "--fail-with-body", "-XPOST", "http://127.0.0.1:\(influx.port)/write?db=copy", "--data-binary", "@\(file)"])
    guard posted.status == 0 else { fatalError("curl: \(posted.standardOutput) \(posted.standardError)") }
}
let postSeconds = seconds(since: postStarted)

let forwardRate = Double(count) / forwardSeconds, postRate = Double(count) / postSeconds
print(String(format: "%d readings: cuff-forward %.0f readings/s (%.2f s; CPU: cuff-forward %.2f s, cuffd %.2f s), curl %.0f points/s (%.2f s); ratio %.3f",
             count, forwardRate, forwardSeconds, forwardCPU, cuffdCPU, postRate, postSeconds, forwardRate / postRate))
