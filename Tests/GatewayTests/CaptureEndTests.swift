import BlueZ
import CuffRecording
import Gateway
import GatewayTestSupport
import Testing

/// When `CuffGateway.capture` ends (docs/capture.md, "When it ends"): once as many of the cuff's links as asked for
/// have ended, or at its duration, whichever comes first; without either, when its first link ends. In virtual time:
/// a capture that ends while the clock stands still ended on its links.
@Suite("Capture: when it ends", .timeLimit(.minutes(1)))
struct CaptureEndTests {
    static let address = CaptureWalkTests.address

    /// The walk tests' device without a bond: the capture connects nothing itself, every link is the test's.
    static var device: EmbeddedPeripheral {
        var device = CaptureWalkTests.device
        device.bonded = false
        return device
    }

    /// A Gateway on `device` and a capture of it asked for `links` and `duration`, returned once the capture records
    /// (its bound waits on the clock).
    static func capturing(links: Int?, for duration: Duration?) async throws -> (EmbeddedGateway, Task<RecordedScenario, any Error>) {
        let rig = try await EmbeddedGateway.start([])
        await rig.central.add(Self.device, exported: true)
        let idle = rig.clock.sleeperCount
        let capture = Task { try await rig.gateway.capture(Self.address, links: links, for: duration, keepIdentity: true) }
        await rig.clock.sleepers(count: idle + 1)
        return (rig, capture)
    }

    /// The capture's recording once it ends. A test whose time runs out cancels it: the capture then ends, and the
    /// test fails on its time rather than hanging.
    static func recording(_ capture: Task<RecordedScenario, any Error>) async throws -> RecordedScenario {
        try await withTaskCancellationHandler { try await capture.value } onCancel: { capture.cancel() }
    }

    /// The device links `count` times, each link handled by the Gateway before it ends.
    static func link(_ rig: EmbeddedGateway, times count: Int) async {
        for _ in 0..<count {
            await rig.central.linkUp(Self.address)
            await rig.settled()
            await rig.central.linkDown(Self.address)
            await rig.settled()
        }
    }

    @Test(arguments: [1, 2, 3])
    func endsWhenTheLinkAskedForHasEnded(links: Int) async throws {
        let (rig, capture) = try await Self.capturing(links: links, for: nil)
        await Self.link(rig, times: links)
        let recording = try await Self.recording(capture)
        await rig.stop()

        #expect(recording.cuff.links.count == links, "every link up to the last asked for is recorded, and the capture ended with it")
        #expect(recording.cuff.links.allSatisfy { $0.steps.last?.action == .disconnect })
    }

    @Test func withoutLinksOrDurationItEndsWithTheFirstLink() async throws {
        let (rig, capture) = try await Self.capturing(links: nil, for: nil)
        await Self.link(rig, times: 1)
        let recording = try await Self.recording(capture)
        await rig.stop()

        #expect(recording.cuff.links.count == 1)
    }

    @Test func theDurationEndsItWhenFewerLinksCame() async throws {
        let (rig, capture) = try await Self.capturing(links: 3, for: .seconds(30))
        await Self.link(rig, times: 1)
        rig.clock.advance(by: .seconds(30))
        let recording = try await Self.recording(capture)
        await rig.stop()

        try #require(recording.cuff.links.count == 1)
        #expect(recording.cuff.links[0].steps.last?.action == .disconnect)
    }

    @Test func aDurationAloneFollowsTheCuffAcrossItsLinks() async throws {
        let (rig, capture) = try await Self.capturing(links: nil, for: .seconds(30))
        await Self.link(rig, times: 2)
        rig.clock.advance(by: .seconds(30))
        let recording = try await Self.recording(capture)
        await rig.stop()

        try #require(recording.cuff.links.count == 2)
        #expect(recording.cuff.links[1].after != nil)
    }
}
