import DBusTestSupport
import Foundation
import Logging
import Testing
@testable import SystemdSupport

/// What a device sent, in cuffd's log (docs/journal.md, "Strings from devices"): escaped where a person reads it —
/// a line on stderr, the journal's `MESSAGE` — and kept exact in the journal's other fields.
@Suite("Strings from devices in the log")
struct LogEscapingTests {
    static let serial = "x\u{1B}[31mRED\n"

    struct Failure: Error, CustomStringConvertible {
        var description: String { "the cuff \u{1B}]0;pwned\u{07} refused" }
    }

    @Test("The journal: MESSAGE escaped, the fields exact")
    func journal() throws {
        let receiver = try DatagramReceiver()
        let writer = try #require(JournalWriter(socketPath: receiver.path))
        let logger = Logger(label: "test") { JournalLogHandler(label: $0, identifier: "cuffd", writer: writer) }
        logger.info("Cuff C4:F3:12:53:F2:C9 sent serial \(Self.serial)", error: Failure(), metadata: ["BP_SERIAL": "\(Self.serial)"])
        let fields = parseJournalEntry(try #require(receiver.receive()).bytes)
        #expect(fields["MESSAGE"] == #"Cuff C4:F3:12:53:F2:C9 sent serial x\x1b[31mRED\x0a"#)
        #expect(fields["BP_SERIAL"] == Self.serial)
        #expect(fields["ERROR"] == Failure().description)
    }

    @Test("stderr: the message, every metadata value however nested, and the error escaped; nothing else changed")
    func standardError() throws {
        let recorder = Recorder()
        var handler = StandardErrorLogHandler(writingTo: recorder)
        handler[metadataKey: "BP_DEVICE"] = "C4:F3:12:53:F2:C9"
        let logger = Logger(label: "test") { _ in handler }
        logger.warning("Cuff sent serial \(Self.serial)", error: Failure(), metadata: [
            "BP_SERIAL": "\(Self.serial)", "nested": ["names": ["BP-1", "\u{9B}2J"], "model": .stringConvertible(Self.serial)],
        ])
        let event = try #require(recorder.events.first)
        #expect(event.message.description == #"Cuff sent serial x\x1b[31mRED\x0a"#)
        #expect(event.level == .warning && event.error == nil)
        let metadata = try #require(event.metadata)
        #expect(metadata["BP_DEVICE"]?.description == "C4:F3:12:53:F2:C9")
        #expect(metadata["BP_SERIAL"]?.description == #"x\x1b[31mRED\x0a"#)
        #expect(metadata["error"]?.description == #"the cuff \x1b]0;pwned\x07 refused"#)
        guard case let .dictionary(nested)? = metadata["nested"], case let .array(names)? = nested["names"] else {
            throw TestFailure("nested metadata lost its shape")
        }
        #expect(names.map(\.description) == ["BP-1", #"\x9b2J"#])
        #expect(nested["model"]?.description == #"x\x1b[31mRED\x0a"#)
    }

    /// Keeps what a handler is given.
    final class Recorder: LogHandler, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [LogEvent] = []
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        var events: [LogEvent] { lock.withLock { received } }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { lock.withLock { received.append(event) } }
    }
}
