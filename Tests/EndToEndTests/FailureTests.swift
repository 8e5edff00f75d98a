import CuffdVersion
import DBusTestSupport
import Foundation
import GRDB
import HealthStore
import Testing

/// What a user can get wrong, each with its message and exit status (docs/cuffctl.md, docs/cuffd.md).
@Suite("cuffd and cuffctl: user errors", .serialized)
struct FailureTests {
    @Test("cuffctl without cuffd exits 69 saying so; an unknown cuff exits 68; a start with nothing coming exits 75")
    func clientErrors() async throws {
        // Nobody presses START: the paired cuff sends nothing more, and a start runs out of time.
        let stack = try await Stack.make(scenario: "passkey.json", manualStart: true)
        let absent = try await stack.cuffctl(["readings"])
        #expect(absent.status == 69)
        #expect(absent.error.contains("cuffd is not running"))
        let doctorWithout = try await stack.cuffctl(["doctor", "--json"])
        #expect(doctorWithout.output.contains(#"{"name":"cuffd","status":"failure","detail":"cuffd is not running"#))
        try await stack.startDaemon()
        let doctor = try await stack.cuffctl(["doctor", "--json"])
        #expect(doctor.output.contains(#"{"name":"bluetoothd","status":"ok""#))
        #expect(doctor.output.contains(#"{"name":"cuffd","status":"ok","detail":"cuffd 0.1: Bluetooth on hci0"#))
        let unknown = try await stack.cuffctl(["start", "00:11:22:33:44:55", "--timeout", "1"])
        #expect(unknown.status == 68, "\(unknown.error)")
        #expect(try await stack.cuffctl(["pair", "D0:5F:B8:4A:21:07", "--passkey", "123456"]).status == 0)
        let silent = try await stack.cuffctl(["start", "D0:5F:B8:4A:21:07", "--timeout", "0.5"])
        #expect(silent.status == 75, "\(silent.error)")
        let wrongKey = try await stack.cuffctl(["grant", "1000", "bloodPressure", "write"])
        #expect(wrongKey.status == 64)
        #expect(wrongKey.error.contains("read, share or read,share"))
    }

    @Test("A pairing the cuff refuses (a wrong passkey): exit 76 saying so, and cuffd keeps nothing of the cuff")
    func pairingRefused() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        try await stack.startDaemon()
        let refused = try await stack.cuffctl(["pair", "D0:5F:B8:4A:21:07", "--passkey", "111111", "--timeout", "30"])
        #expect(refused.status == 76, "\(refused.error)")
        #expect(refused.error.contains("the cuff refused pairing (Authentication Failed): check the passkey it displays"), "\(refused.error)")
        let devices = try await stack.cuffctl(["devices", "--json"])
        #expect(devices.status == 0 && !devices.output.contains("D0:5F:B8:4A:21:07"), "\(devices.output)")
        try await stack.wait(for: "removed by RemoveDevice; bond forgotten", in: "cuff-sim.log")
    }

    @Test("An Omron cuff of the 0xFE4A service pairs by bond alone and a token unlock: pair exits 0, no pairing key programmed")
    func omronModernServicePairs() async throws {
        let stack = try await Stack.make(scenario: "omron-fe4a.json")
        try await stack.startDaemon()
        let paired = try await stack.cuffctl(["pair", "28:FF:B2:10:71:42", "--timeout", "30"])
        #expect(paired.status == 0, "\(paired.error)")
        let log = stack.text("cuff-sim.log")
        #expect(log.contains("Omron token unlock written") && !log.contains("Omron unlock written"), "\(log)")
    }

    @Test("A bad configuration file: exit 78 and the line that is wrong")
    func badConfiguration() async throws {
        let stack = try await Stack.make(scenario: "passkey.json", configuration: "[Clock]\nSync=maybe\n")
        await #expect(throws: TestFailure.self) { try await stack.startDaemon() }
        #expect(try await stack.daemonExit() == 78)
        #expect(stack.text("cuffd.log").contains("cuffd.conf:2: Sync must be yes or no, not \"maybe\""))
    }

    @Test("A store a newer release wrote: exit 73 naming both releases, the file untouched")
    func newerStore() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        var configuration = StoreConfiguration()
        configuration.sourceVersion = "99.0"
        _ = try HealthStore.open(path: stack.storePath, configuration: configuration)
        let future = try DatabaseQueue(path: stack.storePath)
        try await future.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99-from-the-future')") }
        try future.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: stack.storePath))
        await #expect(throws: TestFailure.self) { try await stack.startDaemon() }
        #expect(try await stack.daemonExit() == 73)
        let log = stack.text("cuffd.log")
        #expect(log.contains("written by cuffd 99.0") && log.contains("v99-from-the-future") && log.contains("this is cuffd \(Release.version)"), "\(log)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: stack.storePath)) == before)
    }

    @Test("A second cuffd on the same bus exits 75: the name is taken")
    func secondDaemon() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        try await stack.startDaemon()
        let second = try await ExternalCommand.runDetached(
            Stack.binaries.appendingPathComponent("cuffd").path,
            ["--bus", stack.bus.address, "--store", stack.directory.appendingPathComponent("other.sqlite").path, "--config", stack.configurationPath])
        #expect(second.status == 75, "\(second.standardError)")
    }

    @Test("When its bus goes away cuffd exits 69, for systemd to start it again")
    func busLost() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        try await stack.startDaemon()
        stack.bus.stop()
        #expect(try await stack.daemonExit() == 69)
    }
}
