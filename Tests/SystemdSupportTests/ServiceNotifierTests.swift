import Foundation
import DBusTestSupport
import Testing
@testable import SystemdSupport

@Suite("sd_notify")
struct ServiceNotifierTests {
    @Test(arguments: [false, true])
    func readinessStatusAndStopping(abstract: Bool) throws {
        let receiver = try DatagramReceiver(abstract: abstract)
        let notifier = ServiceNotifier(environment: ["NOTIFY_SOCKET": receiver.path], processID: 42)
        #expect(notifier.isActive)
        notifier.ready(status: "Running: 1 adapter\n0 cuffs")
        #expect(receiver.receiveText() == "READY=1\nSTATUS=Running: 1 adapter 0 cuffs")
        notifier.watchdog()
        #expect(receiver.receiveText() == "WATCHDOG=1")
        notifier.extendTimeout(by: .seconds(90))
        #expect(receiver.receiveText() == "EXTEND_TIMEOUT_USEC=90000000")
        notifier.stopping(status: "Quitting")
        #expect(receiver.receiveText() == "STOPPING=1\nSTATUS=Quitting")
    }

    @Test func watchdogPeriodIsHalvedAndOnlyForThisProcess() {
        let mine = ServiceNotifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42"], processID: 42)
        #expect(mine.watchdogInterval == .seconds(30))
        #expect(mine.watchdogPingInterval == .seconds(15))
        let unnamed = ServiceNotifier(environment: ["WATCHDOG_USEC": "4000000"], processID: 42)
        #expect(unnamed.watchdogPingInterval == .seconds(2))
        let other = ServiceNotifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"], processID: 42)
        #expect(other.watchdogInterval == nil)
    }

    @Test func outsideSystemdNothingIsSent() {
        let notifier = ServiceNotifier(environment: [:], processID: 42)
        #expect(!notifier.isActive)
        #expect(notifier.watchdogInterval == nil)
        notifier.ready(status: "ignored")
    }
}
