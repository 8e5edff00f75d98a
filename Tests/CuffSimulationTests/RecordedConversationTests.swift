import CuffRecording
import CuffSimulation
import GATTHealth
import Testing

/// How a recorded cuff plays back (docs/cuff-sim.md, "Recorded cuffs"), as the value both hosts drive: steps at their
/// times, values held for their sessions, writes matched and echoed, refusals and reads as recorded.
@Suite("Recorded cuffs: the conversation")
struct RecordedConversationTests {
    static let measurement = BluetoothUUID.expand(0x2A35)
    static let pressure = BluetoothUUID.expand(0x2A36)
    static let control = BluetoothUUID.expand(0x2A52)
    static let clock = BluetoothUUID.expand(0x2A2B)

    static func conversation(_ links: [RecordedLink]) -> RecordedConversation {
        RecordedConversation(RecordedCuff(uuids: [], services: [RecordedService(uuid: BluetoothUUID.expand(0x1810), characteristics: [
            RecordedCharacteristic(uuid: measurement, flags: ["indicate"]),
            RecordedCharacteristic(uuid: pressure, flags: ["notify"]),
            RecordedCharacteristic(uuid: control, flags: ["write", "indicate"]),
            RecordedCharacteristic(uuid: clock, flags: ["read", "write"], value: [0xE5, 0x07]),
        ])], links: links))
    }

    static func sent(_ uuid: String, _ bytes: [UInt8], indication: Bool = false) -> RecordedConversation.Next {
        .send(RecordedConversation.Sent(uuid: uuid, bytes: bytes, indication: indication))
    }

    @Test func stepsComeAtTheirTimesAndAValueWaitsForItsSession() {
        var conversation = Self.conversation([RecordedLink(steps: [
            RecordedStep(after: 0.1, .value(uuid: Self.measurement, bytes: [1], indication: true)),
            RecordedStep(after: 0.5, .value(uuid: Self.pressure, bytes: [2], indication: false)),
            RecordedStep(after: 1.0, .disconnect),
        ])])
        #expect(conversation.next(at: 0) == .finished, "nothing before a link")
        let up = conversation.linkUp()
        #expect(up)
        #expect(conversation.next(at: 0) == .wait(until: 0.1))
        #expect(conversation.subscribed(Self.pressure).isEmpty)
        // 0x2A35 has no session yet: held, and the next step is waited for.
        #expect(conversation.next(at: 0.2) == .wait(until: 0.5))
        #expect(conversation.next(at: 0.6) == Self.sent(Self.pressure, [2]))
        #expect(conversation.subscribed(Self.measurement) == [RecordedConversation.Sent(uuid: Self.measurement, bytes: [1], indication: true)])
        #expect(conversation.next(at: 1.0) == .disconnect)
        #expect(conversation.linkDown() == nil, "no recorded link is left: the cuff stays away")
        let again = conversation.linkUp()
        #expect(!again)
    }

    @Test func aLaterLinkComesBackAfterItsGapAndHeldValuesGoWithTheLink() {
        var conversation = Self.conversation([
            RecordedLink(steps: [RecordedStep(after: 0, .value(uuid: Self.measurement, bytes: [1], indication: true)), RecordedStep(after: 0.5, .disconnect)]),
            RecordedLink(after: 2.5, steps: [RecordedStep(after: 0.2, .value(uuid: Self.measurement, bytes: [3], indication: true))]),
        ])
        conversation.linkUp()
        #expect(conversation.next(at: 0.5) == .disconnect)
        #expect(conversation.linkDown() == 2.5)
        #expect(conversation.subscribed(Self.measurement).isEmpty, "the held value went with its link")
        let second = conversation.linkUp()
        #expect(second)
        #expect(conversation.subscribed(Self.measurement).isEmpty)
        #expect(conversation.next(at: 0.2) == Self.sent(Self.measurement, [3], indication: true))
        #expect(conversation.next(at: 0.3) == .finished)
    }

    @Test func whatFollowsAWriteWaitsForItThenAnswersAtTheHostsPace() throws {
        var conversation = Self.conversation([RecordedLink(steps: [
            RecordedStep(after: 0.5, .value(uuid: Self.measurement, bytes: [1], indication: true)),
            RecordedStep(after: 1.0, .write(uuid: Self.control, bytes: [0x01, 0x01], command: false, refusal: nil)),
            RecordedStep(after: 3.25, .value(uuid: Self.control, bytes: [0x06, 0x00, 0x01, 0x01], indication: true)),
            RecordedStep(after: 9.0, .disconnect),
        ])])
        conversation.linkUp()
        _ = conversation.subscribed(Self.control)
        _ = conversation.subscribed(Self.measurement)
        #expect(conversation.next(at: 0.1) == .wait(until: 0.5), "before the first write, steps keep their time")
        #expect(conversation.next(at: 0.5) == Self.sent(Self.measurement, [1], indication: true))
        #expect(conversation.next(at: 5) == .waitForHost)
        try conversation.write([0x01, 0x01], to: Self.control, at: 7)
        #expect(conversation.next(at: 7) == Self.sent(Self.control, [0x06, 0x00, 0x01, 0x01], indication: true), "the answer at once")
        #expect(conversation.next(at: 7) == .wait(until: 15), "the link's end keeps its spacing from the write")
        #expect(conversation.next(at: 15) == .disconnect)
    }

    @Test func aSubscribeStepHoldsWhatFollowsUntilTheHostsSession() throws {
        var conversation = Self.conversation([RecordedLink(steps: [
            RecordedStep(after: 0.1, .subscribe(uuid: Self.measurement)),
            RecordedStep(after: 0.2, .value(uuid: Self.measurement, bytes: [1], indication: true)),
            RecordedStep(after: 0.3, .disconnect),
        ])])
        conversation.linkUp()
        #expect(conversation.next(at: 5) == .waitForHost, "no link's end before the session the recording had")
        #expect(conversation.subscribed(Self.measurement).isEmpty)
        #expect(conversation.next(at: 5) == Self.sent(Self.measurement, [1], indication: true))
        #expect(conversation.next(at: 5) == .disconnect)
    }

    @Test func aWriteMadeAgainIsAnsweredAgainAndTakesNoOtherStep() throws {
        let write = { (bytes: [UInt8]) in RecordedStep.Action.write(uuid: Self.control, bytes: bytes, command: false, refusal: nil) }
        let answer = { (byte: UInt8) in RecordedStep.Action.value(uuid: Self.control, bytes: [byte, 0x00], indication: true) }
        var conversation = Self.conversation([RecordedLink(steps: [
            RecordedStep(after: 0, write([0x02, 0x00])), RecordedStep(after: 0.1, answer(0x82)),
            RecordedStep(after: 0.2, write([0x00, 0x07])), RecordedStep(after: 0.3, answer(0x80)),
        ])])
        conversation.linkUp()
        _ = conversation.subscribed(Self.control)
        try conversation.write([0x02, 0x00], to: Self.control, at: 0)
        #expect(conversation.next(at: 0) == Self.sent(Self.control, [0x82, 0x00], indication: true))
        // No answer heard in time: the host asks again, with bytes the same length as the next step's.
        try conversation.write([0x02, 0x00], to: Self.control, at: 2)
        #expect(conversation.next(at: 2) == Self.sent(Self.control, [0x82, 0x00], indication: true), "answered as before")
        #expect(conversation.next(at: 2) == .waitForHost, "the next step still waits for its own write")
        try conversation.write([0x00, 0x09], to: Self.control, at: 3)
        #expect(conversation.next(at: 3) == Self.sent(Self.control, [0x80, 0x00], indication: true))
    }

    @Test func aWriteIsTakenForTheSameBytesFirstThenTheSameLengthThenAny() throws {
        let write = { (bytes: [UInt8]) in RecordedStep.Action.write(uuid: Self.control, bytes: bytes, command: false, refusal: nil) }
        let answer = { (byte: UInt8) in RecordedStep.Action.value(uuid: Self.control, bytes: [byte], indication: true) }
        var conversation = Self.conversation([RecordedLink(steps: [
            RecordedStep(after: 0, write([0x01, 0x01])), RecordedStep(after: 0, answer(1)),
            RecordedStep(after: 0, write([0x04, 0x01])), RecordedStep(after: 0, answer(2)),
            RecordedStep(after: 0, write([0x01, 0x04, 0x01, 0x0C, 0x00])), RecordedStep(after: 0, answer(3)),
        ])])
        conversation.linkUp()
        _ = conversation.subscribed(Self.control)
        try conversation.write([0x04, 0x01], to: Self.control, at: 0)
        try conversation.write([0x01, 0x04, 0x01, 0x0D, 0x00], to: Self.control, at: 0)
        try conversation.write([0x09], to: Self.control, at: 0)
        #expect([conversation.next(at: 1), conversation.next(at: 1), conversation.next(at: 1)] == [1, 2, 3].map { Self.sent(Self.control, [$0], indication: true) })
    }

    @Test func bytesTheHostWroteDifferentlyAreEchoedAsTheCuffEchoedThem() throws {
        let unlock = "b305b680-aee7-11e1-a730-0002a5d5c51b"
        var conversation = RecordedConversation(RecordedCuff(uuids: [], services: [RecordedService(uuid: OmronModernService.uuid, characteristics: [
            RecordedCharacteristic(uuid: unlock, flags: ["write", "write-without-response", "notify"]),
        ])], links: [RecordedLink(steps: [
            RecordedStep(after: 0, .write(uuid: unlock, bytes: [0x11, 0xA1, 0xA2, 0xA3, 0xA4, 0x00], command: true, refusal: nil)),
            RecordedStep(after: 0, .value(uuid: unlock, bytes: [0x91, 0x00, 0xA1, 0xA2, 0xA3, 0xA4], indication: false)),
        ])]))
        conversation.linkUp()
        _ = conversation.subscribed(unlock)
        try conversation.write([0x11, 0x51, 0xA2, 0x53, 0x54, 0x00], to: unlock, at: 0)
        #expect(conversation.next(at: 0) == Self.sent(unlock, [0x91, 0x00, 0x51, 0xA2, 0x53, 0x54]))
    }

    @Test func aRefusedWriteIsRefusedAgainAndAnUnrecordedOneTakenSilently() throws {
        var conversation = Self.conversation([RecordedLink(steps: [
            RecordedStep(after: 0, .write(uuid: Self.control, bytes: [0x01], command: false, refusal: "org.bluez.Error.Failed: Operation failed with ATT error: 0x81")),
        ])])
        conversation.linkUp()
        try conversation.write([0x20], to: Self.clock, at: 0)
        do {
            try conversation.write([0x02], to: Self.control, at: 0)
            Issue.record("a write recorded as refused was taken")
        } catch {
            #expect(error == RecordedConversation.Refusal("org.bluez.Error.Failed: Operation failed with ATT error: 0x81"))
        }
        #expect(conversation.next(at: 0) == .finished)
    }

    @Test func readsReturnTheFirstValueReadThenWhatEachReadStepShowed() throws {
        var conversation = Self.conversation([RecordedLink(steps: [RecordedStep(after: 1, .read(uuid: Self.clock, bytes: [0xEA, 0x07]))])])
        conversation.linkUp()
        #expect(try conversation.read(Self.clock) == [0xE5, 0x07])
        #expect(try conversation.read(Self.measurement) == [], "never read")
        _ = conversation.next(at: 1)
        #expect(try conversation.read(Self.clock) == [0xEA, 0x07])
    }
}
