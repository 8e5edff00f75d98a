import ForwardingStatus
import Foundation
import Testing
@testable import cuffctl

/// `cuffctl forward status` in words (docs/forwarding.md, "Status").
@Suite("forward status")
struct ForwardStatusTests {
    @Test("State and since, the lag, the last acknowledged reading and the last error, each a line")
    func words() throws {
        var status = ForwardStatus(gateway: "ward3", state: .waitingForPostgreSQL, since: 1_000, anchor: 57)
        status.lastSyncIdentifier = "C4F3-1-9"
        status.lastMeasuredAt = 900
        status.lastAcknowledgedAt = 990
        status.lastError = "server closed the connection unexpectedly"
        status.lastErrorAt = 1_000
        let lines = ForwardStatusCommand.text(status, pending: 3, pendingHeartRates: nil, lagSeconds: 70, now: 1_060).components(separatedBy: "\n")
        try #require(lines.count == 4)
        #expect(lines[0].hasPrefix("gateway ward3: waiting for PostgreSQL since ") && lines[0].hasSuffix("(60 s ago)"))
        #expect(lines[1] == "lag: 3 readings, 70 s since the last acknowledgement")
        #expect(lines[2].hasPrefix("last acknowledged reading: C4F3-1-9, measured ") && lines[2].hasSuffix("(70 s ago)"))
        #expect(lines[3].hasPrefix("last error: server closed the connection unexpectedly — "))
    }

    @Test("Caught up and never failed: no lag, and no error line")
    func caughtUp() {
        let status = ForwardStatus(gateway: "ward3", state: .forwarding, since: 1_000, anchor: 0)
        let text = ForwardStatusCommand.text(status, pending: 0, pendingHeartRates: nil, lagSeconds: 0, now: 1_000)
        #expect(text.components(separatedBy: "\n").dropFirst() == ["lag: none", "last acknowledged reading: none since cuff-forward started"])
    }

    @Test("With the heart-rate anchor in the status: the heart-rate lag on a line of its own, and in the JSON")
    func heartRateLag() {
        var status = ForwardStatus(gateway: "ward3", state: .forwarding, since: 1_000, anchor: 5)
        status.heartRateAnchor = 40
        let lines = ForwardStatusCommand.text(status, pending: 0, pendingHeartRates: 12, lagSeconds: 0, now: 1_000).components(separatedBy: "\n")
        #expect(lines[1...2] == ["lag: none", "heart-rate lag: 12 samples"])
        #expect(ForwardStatusCommand.text(status, pending: 0, pendingHeartRates: 0, lagSeconds: 0, now: 1_000).contains("heart-rate lag: none"))
        let json = ForwardStatusCommand.json(status, pending: 0, pendingHeartRates: 12, lagSeconds: 0).rendered
        #expect(json.contains("\"heartRateAnchor\":40") && json.contains("\"lagHeartRates\":12"), "\(json)")
    }
}
