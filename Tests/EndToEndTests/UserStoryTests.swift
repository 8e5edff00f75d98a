import CuffSimulation
import DBusTestSupport
import Foundation
import Testing

/// The user story over cuff-sim: pair, start shows progress and the reading, the reading is
/// stored once with its device and user — also after the cuff re-sends it —, the journal has its entry,
/// SIGTERM shuts down cleanly, SIGKILL and a restart lose nothing committed.
@Suite("cuff-sim + cuffd + cuffctl", .serialized)
struct UserStoryTests {
    @Test("pair, then start shows the cuff pressure and the reading; readings --json holds each reading once")
    func pairStartReadings() async throws {
        let stack = try await Stack.make(scenario: "one-cuff.json", manualStart: true)
        try await stack.startDaemon()
        let pair = try await stack.cuffctl(["pair", "C4:F3:12:53:F2:C9"])
        #expect(pair.status == 0, "\(pair.error)")
        let start = try await stack.measure("C4:F3:12:53:F2:C9")
        #expect(start.status == 0, "\(start.error)\n\(stack.text("cuffd.log"))")
        #expect(start.output.contains("connected, waiting for the measurement"))
        #expect(start.output.contains("measuring"))
        #expect(start.output.contains("120 mmHg"))
        #expect(start.output.contains("Stored: "))
        #expect(start.output.contains("122/80 mmHg  pulse 72/min  C4:F3:12:53:F2:C9  user 1"))

        // The stored record came on the pairing link and again on the wake-up link: stored once.
        let readings = try await stack.readings()
        let expected = try #require(Scenario.parse(Data(contentsOf: stack.scenario)).expect?.readings)
        #expect(readings.count == expected.count)
        let measured = try #require(readings.first { $0["systolic"] as? Double == 122 })
        #expect(measured["userID"] as? Int == 1)
        #expect(measured["deviceTime"] as? String == "2026-11-22T10:30:00")
        let device = try #require(measured["device"] as? [String: Any])
        #expect(device["address"] as? String == "C4:F3:12:53:F2:C9")
        #expect(device["model"] as? String == "SIM-1")
        #expect(device["serial"] as? String == "0001")
        #expect((measured["time"] as? String)?.count ?? 0 >= 20)
        #expect(try await stack.stopDaemon() == 0)
    }

    @Test("Each stored reading is one structured journal entry with the documented MESSAGE_ID and fields")
    func journalEntry() async throws {
        let stack = try await Stack.make(scenario: "passkey.json", manualStart: true)
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", "D0:5F:B8:4A:21:07", "--passkey", "123456"]).status == 0)
        let follow = try stack.startCuffctl(["readings", "--follow", "--json"], log: "follow.log")
        #expect(try await stack.measure("D0:5F:B8:4A:21:07").status == 0)
        // readings --follow printed the new reading as it was stored, once, read with its own rights.
        try await stack.wait(for: "\"systolic\":118", in: "follow.log")
        follow.terminate()
        #expect(stack.text("follow.log").components(separatedBy: "\"systolic\":118").count == 2)
        let entries = stack.journalEntries().filter { $0["MESSAGE_ID"] == "4f1c2a9e7b3d4c61a8e05d2b9c7f3e10" }
        let entry = try #require(entries.first)
        #expect(entry["BP_SYSTOLIC"] == "118")
        #expect(entry["BP_DIASTOLIC"] == "76")
        #expect(entry["BP_PULSE_BPM"] == "66")
        #expect(entry["BP_DEVICE"] == "D0:5F:B8:4A:21:07")
        #expect(entry["BP_OUTCOME"] == "stored")
        #expect(entry["SYSLOG_IDENTIFIER"] == "cuffd")
        #expect(entry["PRIORITY"] == "6")
    }

    @Test("SIGTERM: STOPPING=1, exit 0; SIGKILL and a restart lose nothing committed and store nothing twice")
    func shutdownAndCrash() async throws {
        let stack = try await Stack.make(scenario: "stored-records.json", manualStart: true)
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["pair", "E8:2A:44:10:3C:5D"]).status == 0)
        let before = try await stack.readings()
        #expect(before.count == 3)  // the history the pairing link brought
        try await stack.killDaemon()
        try await stack.startDaemon()
        // The bonded cuff is a Cuff1 object again at once, named by its remembered identity.
        let devices = try await stack.cuffctl(["devices", "--json"])
        #expect(devices.output.contains("E8:2A:44:10:3C:5D") && devices.output.contains("SIM-HISTORY"), "\(devices.output)")
        #expect(try await stack.readings().map { $0["syncIdentifier"] as? String } == before.map { $0["syncIdentifier"] as? String })
        // After the restart START is pressed: the cuff wakes, re-sends its history and measures: one new reading, nothing twice.
        #expect(try await stack.measure("E8:2A:44:10:3C:5D").status == 0)
        #expect(try await stack.readings().count == 4)
        #expect(try await stack.stopDaemon() == 0)
        #expect(stack.notify.texts.contains { $0.contains("STOPPING=1") })
    }

    @Test("Idle, nothing wakes cuffd: no thread of it runs for three seconds (wakeups 0/s)")
    func idleDaemonSleeps() async throws {
        let stack = try await Stack.make(scenario: "one-cuff.json")
        try await stack.startDaemon()
        #expect(try await stack.cuffctl(["status"]).status == 0)
        let pid = try #require(stack.daemon?.pid)
        let idle = try await ThreadSwitches.wokenWhileIdle(pid)
        #expect(idle.woken == [:], "\(idle.names)")
        #expect(try await stack.stopDaemon() == 0)
    }

    @Test("Under a systemd watchdog cuffd pings WATCHDOG=1 again and again, and still stops on SIGTERM, not held up by the watchdog loop")
    func watchdogAndPromptStop() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        try await stack.startDaemon(environment: ["WATCHDOG_USEC": "400000"])
        try await stack.notify.received.wait(for: "two pings") { _ in stack.notify.texts.filter { $0 == "WATCHDOG=1" }.count >= 2 ? () : nil }
        // stopDaemon fails a cuffd that has not stopped 30 s after SIGTERM: held up, it would wait for good.
        #expect(try await stack.stopDaemon() == 0)
    }
}
