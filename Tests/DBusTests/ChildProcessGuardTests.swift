import CLinux
import DBusTestSupport
import Foundation
import Testing

/// The hang guards of the processes tests start (docs/testing.md, "Hang guards"): no child holds the test process's
/// output, and a command whose output a child of its own keeps open still ends.
@Suite("Test support: the processes tests start")
struct ChildProcessGuardTests {
    /// Where descriptor `number` of process `pid` points.
    static func target(of number: Int32, in pid: pid_t) throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(number)")
    }

    @Test("A child's standard output and error are not the test process's unless a test says where they go")
    func outputsAreNotInherited() throws {
        let child = try ChildProcess("sleep", ["600"])
        defer { child.terminate() }
        #expect(try Self.target(of: 1, in: child.pid) == "/dev/null")
        #expect(try Self.target(of: 2, in: child.pid) == "/dev/null")
    }

    @Test("A command whose own child keeps its output open ends at its deadline, and that child with it")
    func aGrandchildHoldingTheOutputIsKilled() throws {
        let result = try ExternalCommand.run("/bin/sh", ["-c", "sleep 600 & echo $!"], timeout: 1)
        let grandchild = try #require(pid_t(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result)")
        #expect(result.standardError.contains("output still open") == false, "\(result.standardError)")
        // Its output closed as it exits; the exit itself is waited for.
        #expect(Self.ends(grandchild), "sleep \(grandchild) still runs")
    }

    /// Whether process `pid`, not a child of this one, ends within `testDeadline`: its pidfd (pidfd_open(2)) turns
    /// readable when it has; one already gone has none.
    static func ends(_ pid: pid_t) -> Bool {
        let descriptor = pidfd_open(pid, 0)
        guard descriptor >= 0 else { return errno == ESRCH }
        defer { close(descriptor) }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(testDeadline / .milliseconds(1))) == 1
    }
}
