import DBusTestSupport
import Foundation

/// A PostgreSQL server's processes: the postmaster (the first line of its postmaster.pid) and its children — the
/// backends, the WAL writer, the checkpointer and the rest.
public func serverProcesses(_ server: PostgresServer) -> [pid_t] {
    guard let postmaster = postmaster(server) else { return [] }
    return [postmaster] + children(of: postmaster)
}

/// CPU seconds (user and system) the server has used so far: the processes it runs now, and through the postmaster's
/// figures for reaped children, every backend that has ended — a session that ended between two readings is counted.
public func serverCPUSeconds(_ server: PostgresServer) -> Double {
    guard let postmaster = postmaster(server) else { return 0 }
    return cpuSeconds(postmaster, includingReapedChildren: true) + children(of: postmaster).map { cpuSeconds($0) }.reduce(0, +)
}

/// The dbus-daemon of `bus`: the process started with a configuration file in the bus's folder.
public func busDaemon(_ bus: PrivateBus) -> pid_t? {
    processes().first { pid in
        ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").contains("--config-file=\(bus.directory.path)/")
    }
}

private func postmaster(_ server: PostgresServer) -> pid_t? {
    let pidFile = server.directory.appendingPathComponent("data/postmaster.pid").path
    return ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(separator: "\n").first.flatMap { pid_t($0) }
}

private func processes() -> [pid_t] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
}

private func children(of parent: pid_t) -> [pid_t] {
    processes().filter { pid in
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").dropFirst().first.flatMap { pid_t($0) } == parent
    }
}
