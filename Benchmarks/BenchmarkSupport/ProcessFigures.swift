import Foundation

/// A figure in KiB from one of a process's /proc files of `Key: N kB` lines — `status` (VmRSS, VmHWM) or
/// `smaps_rollup` (Pss, Private_Dirty) —, 0 once the process is gone.
public func kibibytes(_ key: String, of pid: pid_t, in file: String = "status") -> Int {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
        .flatMap { Int($0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")[0]) } ?? 0
}

/// A process's peak resident memory in KiB (VmHWM), 0 once it is gone.
public func peakKiB(_ pid: pid_t) -> Int { kibibytes("VmHWM", of: pid) }

/// CPU seconds (user and system) process `pid` has used so far, from /proc/PID/stat; with `includingReapedChildren`,
/// those of the children it has waited for too.
public func cpuSeconds(_ pid: pid_t, includingReapedChildren: Bool = false) -> Double {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, cutime and cstime the next.
    let fields = text.split(separator: ")").last?.split(separator: " ") ?? []
    let ticks = fields.dropFirst(11).prefix(includingReapedChildren ? 4 : 2).compactMap { Double($0) }
    guard ticks.count == (includingReapedChildren ? 4 : 2) else { return 0 }
    return ticks.reduce(0, +) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The machine's load averages over 1, 5 and 15 minutes (/proc/loadavg).
public func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
}

/// The median of `values` (the lower middle one of an even count).
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
}

/// A new empty directory under the temporary directory.
public func temporaryDirectory(_ name: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Wall-clock seconds since `start`.
public func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

public func mebibytes(_ kibibytes: Int) -> String { String(format: "%.1f MiB", Double(kibibytes) / 1024) }

/// Seconds of CPU (user and system) that the reaped children of this process have used so far.
public func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Runs a command with its output counted and thrown away; seconds taken, its CPU seconds and peak RSS in KiB.
public func timed(_ executable: String, _ arguments: [String]) throws -> (seconds: Double, cpuSeconds: Double, peakKiB: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    let reader = Thread { while !output.fileHandleForReading.availableData.isEmpty {} }
    let clock = ContinuousClock()
    let started = clock.now
    let cpuBefore = childrenCPUSeconds()
    try process.run()
    reader.start()
    var peak = 0
    while process.isRunning {
        peak = max(peak, peakKiB(process.processIdentifier))
        Thread.sleep(forTimeInterval: 0.01)
    }
    process.waitUntilExit()
    let elapsed = clock.now - started
    guard process.terminationStatus == 0 else { fatalError("\(executable) \(arguments) exited \(process.terminationStatus)") }
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, childrenCPUSeconds() - cpuBefore, peak)
}

/// Drops a file's pages from the page cache, so that exec reads it as after a boot. How a file entered the page
/// cache (written by `cp`, read ahead by an earlier exec) decides the folios the kernel maps it with, and so how
/// much of it fault-around makes resident: two copies of one cuffd measured 17.7 and 18.5 MiB idle without this,
/// 17.7 and 17.7 with it.
public func evictFromPageCache(_ path: String) {
    sync()
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return }
    _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    close(descriptor)
}
