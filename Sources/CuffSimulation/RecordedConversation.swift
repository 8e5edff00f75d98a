import CuffRecording

/// A recorded cuff's conversation as it plays back (docs/cuff-sim.md, "Recorded cuffs"), as a value: whoever hosts the
/// cuff (cuff-sim's bluetoothd, an in-memory central in tests) tells it when links come and go, when notify sessions
/// start, what the host writes, and asks it what the cuff does next and what a read returns.
///
/// Each recorded link plays once, in order, its steps timed from the moment the link came up. A value waits for a
/// notify session on its characteristic (held, and sent when one starts on that link; dropped with the link); a
/// subscribe step, the host's session recorded, holds what follows it until the host starts that session. A write
/// step stands for the host's write: what follows it waits until the host makes a matching write, and from then on
/// the cuff answers at the host's pace — each value or read step as soon as the one before it went, a write step
/// waiting for its write —, while a link's end keeps its spacing from the last write (the cuff's own idle time: a
/// host's write still under way is answered before the link goes). A recording's spacing after a write is the cuff's answer time plus the recording host's delays in seeing
/// it; kept, a replay would add its own delays on top, and a host that gives up on an answer after a moment (an
/// Omron cuff's key, docs/omron.md §2) would give up on the replay where it did not on the cuff.
public struct RecordedConversation: Sendable {
    /// A notification or indication the cuff sends.
    public struct Sent: Sendable, Equatable {
        public let uuid: String
        public let bytes: [UInt8]
        public let indication: Bool

        public init(uuid: String, bytes: [UInt8], indication: Bool) {
            self.uuid = uuid
            self.bytes = bytes
            self.indication = indication
        }
    }

    /// What the cuff does next.
    public enum Next: Sendable, Equatable {
        /// Sends a value now.
        case send(Sent)
        /// Nothing until `moment` (seconds from the link's start).
        case wait(until: Double)
        /// Nothing until the host makes the write the next step stands for, or starts the notify session it stands for.
        case waitForHost
        /// Drops the link now.
        case disconnect
        /// Nothing more on this link.
        case finished
    }

    /// A refusal as bluetoothd answers it: the D-Bus error's name and text (`org.bluez.Error.Failed`, `Operation
    /// failed with ATT error: 0x13`).
    public struct Refusal: Error, Sendable, Equatable {
        public let name: String
        public let message: String

        /// `text` as the capture wrote it: `name: message`.
        public init(_ text: String) {
            let parts = text.split(separator: ": ", maxSplits: 1).map(String.init)
            name = parts.first ?? text
            message = parts.count > 1 ? parts[1] : ""
        }
    }

    /// Bytes that differ between a recorded write and the host's, from the first difference to the last: where the
    /// cuff's answer repeats them, it repeats the host's (a token echoed, docs/omron.md §2).
    struct Echo: Sendable {
        let recorded: [UInt8]
        let written: [UInt8]

        init?(recorded: [UInt8], written: [UInt8]) {
            guard recorded.count == written.count, let first = recorded.indices.first(where: { recorded[$0] != written[$0] }),
                  let last = recorded.indices.last(where: { recorded[$0] != written[$0] }), last > first else { return nil }
            self.recorded = Array(recorded[first ... last])
            self.written = Array(written[first ... last])
        }

        func applied(to bytes: [UInt8]) -> [UInt8] {
            var result = bytes
            var index = 0
            while index + recorded.count <= result.count {
                if result[index ..< index + recorded.count].elementsEqual(recorded) {
                    result.replaceSubrange(index ..< index + recorded.count, with: written)
                    index += recorded.count
                } else {
                    index += 1
                }
            }
            return result
        }
    }

    /// A write step the host's write was taken for: when, and the echo it makes.
    struct Match: Sendable {
        let moment: Double
        let echo: Echo?
    }

    public let recording: RecordedCuff
    /// The recorded link under way; nil between links and once every one has played.
    public private(set) var link: Int?
    private var nextLink = 0
    /// The next step of the link.
    private var cursor = 0
    /// The last matched write: its step's time and when the host made it. Until the link's first, steps are due at
    /// their time from the link's start; after it, values and reads at once, the link's end at its spacing from it.
    private var lastWrite: (after: Double, moment: Double)?
    private var matches: [Int: Match] = [:]
    /// The write step each characteristic's last write was taken for, with the bytes the host wrote.
    private var lastTaken: [String: (index: Int, bytes: [UInt8])] = [:]
    /// Answers to a repeated write, sent before anything else.
    private var repeated: [Sent] = []
    private var echo: Echo?
    private var subscribed: Set<String> = []
    private var held: [Sent] = []
    /// What a read returns now, by UUID: the first value read, then each read step's.
    private var values: [String: [UInt8]]

    public init(_ recording: RecordedCuff) {
        self.recording = recording
        values = Dictionary(recording.characteristics.compactMap { characteristic in characteristic.value.map { (characteristic.uuid, $0) } }) { first, _ in first }
    }

    /// A link came up: the next recorded link begins. False when every recorded link has played: the cuff says nothing.
    @discardableResult
    public mutating func linkUp() -> Bool {
        (cursor, lastWrite, matches, lastTaken, repeated, echo, subscribed, held) = (0, nil, [:], [:], [], nil, [], [])
        guard nextLink < recording.links.count else {
            link = nil
            return false
        }
        link = nextLink
        nextLink += 1
        return true
    }

    /// The link went down: what was held goes with it. Returns the seconds after which the cuff advertises again,
    /// nil when no recorded link is left.
    public mutating func linkDown() -> Double? {
        (link, subscribed, held) = (nil, [], [])
        return nextLink < recording.links.count ? recording.links[nextLink].after ?? 0 : nil
    }

    /// A notify session on `uuid` started on this link: the values held for it, to send now.
    public mutating func subscribed(_ uuid: String) -> [Sent] {
        subscribed.insert(uuid)
        let due = held.filter { $0.uuid == uuid }
        held.removeAll { $0.uuid == uuid }
        return due
    }

    /// The session on `uuid` ended: its values are held again.
    public mutating func unsubscribed(_ uuid: String) {
        subscribed.remove(uuid)
    }

    /// The host wrote `bytes` to `uuid` at `moment` (seconds from the link's start). It is taken for the first write
    /// step of this link not yet taken on that characteristic, one with the same bytes first, then one of the same
    /// length, then any; a write no step stands for is taken silently. The same bytes as the host's last write there,
    /// when no open step has them, are that write again (a host that heard no answer in time asks again): the cuff
    /// answers as it answered it. Throws the recorded refusal, when the write was refused.
    public mutating func write(_ bytes: [UInt8], to uuid: String, at moment: Double) throws(Refusal) {
        guard let link else { return }
        let steps = recording.links[link].steps
        let open = steps.indices.filter { index in
            guard matches[index] == nil, case .write(uuid, _, _, _) = steps[index].action else { return false }
            return true
        }
        func recorded(_ index: Int) -> [UInt8] {
            if case let .write(_, bytes, _, _) = steps[index].action { bytes } else { [] }
        }
        if let last = lastTaken[uuid], last.bytes == bytes, !open.contains(where: { recorded($0) == bytes }) {
            repeated += answers(to: last.index, in: steps)
            if case let .write(_, _, _, refusal?) = steps[last.index].action { throw Refusal(refusal) }
            return
        }
        guard let taken = open.first(where: { recorded($0) == bytes }) ?? open.first(where: { recorded($0).count == bytes.count }) ?? open.first
        else { return }
        matches[taken] = Match(moment: moment, echo: Echo(recorded: recorded(taken), written: bytes))
        lastTaken[uuid] = (taken, bytes)
        if case let .write(_, _, _, refusal?) = steps[taken].action { throw Refusal(refusal) }
    }

    /// The values the cuff sent after the write step at `index`, up to the next write step, as it sent them.
    private func answers(to index: Int, in steps: [RecordedStep]) -> [Sent] {
        let echo = matches[index]?.echo
        var answers: [Sent] = []
        for step in steps[(index + 1)...] {
            switch step.action {
            case .write, .disconnect: return answers
            case let .value(uuid, bytes, indication): answers.append(Sent(uuid: uuid, bytes: echo?.applied(to: bytes) ?? bytes, indication: indication))
            case .read, .subscribe: continue
            }
        }
        return answers
    }

    /// What a read of `uuid` returns now: its value, or the refusal every recorded read met; empty for one never read.
    public func read(_ uuid: String) throws(Refusal) -> [UInt8] {
        if let value = values[uuid] { return value }
        if let error = recording.characteristic(uuid)?.readError { throw Refusal(error) }
        return []
    }

    /// What the cuff does next at `moment` (seconds from the link's start): values due are sent, or held until their
    /// session starts; read steps change what reads return; a write step not matched yet, or a step not due, waits.
    /// Read steps are taken at once; before the link's first matched write other steps are due at their recorded
    /// time; after it, values at once and the link's end at its recorded spacing from the last write.
    public mutating func next(at moment: Double) -> Next {
        guard let link else { return .finished }
        while !repeated.isEmpty {
            let answer = repeated.removeFirst()
            guard subscribed.contains(answer.uuid) else {
                held.append(answer)
                continue
            }
            return .send(answer)
        }
        let steps = recording.links[link].steps
        while cursor < steps.count {
            let step = steps[cursor]
            if case let .subscribe(uuid) = step.action {
                // A session the host started when recorded: what followed went to it (and the link's end waited for it).
                guard subscribed.contains(uuid) else { return .waitForHost }
                cursor += 1
                continue
            }
            if case .write = step.action {
                guard let match = matches[cursor] else { return .waitForHost }
                (lastWrite, echo) = ((step.after, match.moment), match.echo)
                cursor += 1
                continue
            }
            let due = switch (lastWrite, step.action) {
            // What a read returned came when the host read: it holds up nothing that follows.
            case (_, .read): moment
            case (nil, _): step.after
            case let (write?, .disconnect): write.moment + (step.after - write.after)
            case (_?, _): moment
            }
            guard due <= moment else { return .wait(until: due) }
            cursor += 1
            switch step.action {
            case let .value(uuid, bytes, indication):
                let sent = Sent(uuid: uuid, bytes: echo?.applied(to: bytes) ?? bytes, indication: indication)
                guard subscribed.contains(uuid) else {
                    held.append(sent)
                    continue
                }
                return .send(sent)
            case let .read(uuid, bytes):
                values[uuid] = bytes
            case .disconnect:
                return .disconnect
            case .write, .subscribe:
                break
            }
        }
        return .finished
    }
}
