import BlueZ
import CuffRecording
import CuffSimulation
import Gateway
import GatewayTestSupport
import Testing

/// A capture whose walk the link's end cuts before it read a value (docs/capture.md): a cuff that ends the link as the
/// walk starts — an A&D cuff once cuffd's pairing sent its disconnect request, or after the reading it sent. What the
/// cuff sends on its next link is recorded as it sent it, never taken for the answer to a read the walk of the link
/// before never made; a value the walk never read is the first one bluetoothd showed, so a replay's host reads it.
@Suite("Capture: a walk the link's end cuts short", .timeLimit(.minutes(1)))
struct CaptureLinkEndTests {
    static let address = CaptureWalkTests.address
    /// A value that can be read and notifies, as Current Time 0x2A2B does.
    static let clock = "7e700006-b5a3-f393-e0a9-e50e24dcca9e"

    /// ``CaptureWalkTests``'s device (nothing cuffd collects from, so the walk starts on the link at once) with that
    /// value alone.
    static var device: EmbeddedPeripheral {
        var device = CaptureWalkTests.device
        device.characteristics = [.init(clock, service: CaptureWalkTests.vendorService, ["read", "notify"], value: [1])]
        device.descriptors = []
        return device
    }

    @Test func theNextLinksValueIsRecordedAsSent() async throws {
        let rig = try await EmbeddedGateway.start([Self.device])
        await rig.central.dropLinkOnCaptureSessions(of: Self.address)
        let capture = try await rig.gateway.startCapture(Self.address)
        await rig.central.linkUp(Self.address)
        await rig.settled()
        await capture.walkEnded()
        await rig.central.linkUp(Self.address)
        await rig.settled()
        await capture.walkEnded()
        #expect(await rig.central.send(.init(Self.clock, [0x02]), from: Self.address), "the capture subscribed to it")
        await rig.settled()
        let recording = try await rig.gateway.finishCapture(capture, keepIdentity: true)
        await rig.stop()

        #expect(recording.cuff.links.count == 2)
        #expect(recording.cuff.links.last?.steps.map(\.action) == [.value(uuid: Self.clock, bytes: [0x02], indication: false)])
        #expect(recording.cuff.characteristic(Self.clock)?.value == [1], "the next link's walk read it")
    }

    @Test func aValueTheWalkNeverReadIsTheFirstOneBluetoothdShowed() async throws {
        // The walk reads in handle order: the link goes at its first read, the one before the clock's.
        var device = Self.device
        device.characteristics.insert(.init("7e700003-b5a3-f393-e0a9-e50e24dcca9e", service: CaptureWalkTests.vendorService, ["read"], value: [9]), at: 0)
        device.onSubscribe = [.init(Self.clock, [0x07])]
        let (rig, capture) = try await CaptureWalkTests.walkedUntilTheLinkWent(device, afterReads: 0)
        let recording = try await rig.gateway.finishCapture(capture, keepIdentity: true)
        await rig.stop()

        #expect(recording.cuff.links.map { $0.steps.map(\.action) } == [[.value(uuid: Self.clock, bytes: [0x07], indication: false), .disconnect]])
        #expect(recording.cuff.notes == ["the link dropped while cuffd walked the GATT database: 2 readable value(s) and 0 descriptor(s) were not read"])
        #expect(recording.cuff.characteristic(Self.clock)?.value == [0x07])
        #expect(try RecordedConversation(recording.cuff).read(Self.clock) == [0x07], "what a replay's host reads")
    }
}
