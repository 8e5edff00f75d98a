import Foundation
import Logging
import DBusTestSupport
import Testing
@testable import SystemdSupport

#if canImport(Glibc)
import Glibc
#endif

@Suite("Journal native protocol")
struct JournalTests {
    @Test(arguments: [
        ("device.address", "DEVICE_ADDRESS"), ("BP_SYSTOLIC_MMHG", "BP_SYSTOLIC_MMHG"), ("_trusted", "TRUSTED"),
        ("9lives", "F_9LIVES"), ("größe", "GR_SSE"), (String(repeating: "a", count: 80), String(repeating: "A", count: 64)),
    ])
    func fieldNamesAreMapped(_ key: String, _ expected: String) {
        #expect(JournalFieldName.mapping(key) == expected)
    }

    @Test func keysWithNothingUsableAreDropped() {
        #expect(JournalFieldName.mapping("___") == nil)
        #expect(JournalFieldName.mapping("") == nil)
    }

    @Test func valuesWithNewlinesUseTheBinaryForm() {
        var entry = JournalEntry()
        entry.append("MESSAGE", "two\nlines")
        entry.append("PRIORITY", "6")
        let expected = Array("MESSAGE\n".utf8) + [9, 0, 0, 0, 0, 0, 0, 0] + Array("two\nlines\nPRIORITY=6\n".utf8)
        #expect(entry.serialized == expected)
    }

    @Test func aLogEventBecomesOneStructuredEntry() throws {
        let receiver = try DatagramReceiver()
        let writer = try #require(JournalWriter(socketPath: receiver.path))
        var logger = Logger(label: "test") { JournalLogHandler(label: $0, identifier: "cuffd", writer: writer) }
        logger[metadataKey: "device.address"] = "C4:F3:12:53:F2:C9"
        logger.warning("reading stored", metadata: ["MESSAGE_ID": "0f6b1c3d", "BP_SYSTOLIC_MMHG": "124", "BP_NOTE": "two\nlines"])
        let fields = parseJournalEntry(try #require(receiver.receive()).bytes)
        #expect(fields["MESSAGE"] == "reading stored")
        #expect(fields["BP_NOTE"] == "two\nlines")
        #expect(fields["PRIORITY"] == "4")
        #expect(fields["SYSLOG_IDENTIFIER"] == "cuffd")
        #expect(fields["DEVICE_ADDRESS"] == "C4:F3:12:53:F2:C9")
        #expect(fields["MESSAGE_ID"] == "0f6b1c3d")
        #expect(fields["BP_SYSTOLIC_MMHG"] == "124")
        #expect(fields["CODE_FILE"]?.hasSuffix("JournalTests.swift") == true)
        #expect(fields["UNIT"] == nil)
    }

    @Test func anEntryTooLargeForADatagramTravelsInASealedMemfd() throws {
        let receiver = try DatagramReceiver()
        let writer = try #require(JournalWriter(socketPath: receiver.path, sendBufferSize: 64 << 10))
        var entry = JournalEntry()
        entry.append("MESSAGE", String(repeating: "x", count: 4 << 20))
        #expect(writer.write(entry) == 0)
        let received = try #require(receiver.receive())
        #expect(received.bytes.count == 0)
        let descriptor = try #require(received.passed)
        defer { close(descriptor) }
        var byte: UInt8 = 0
        #expect(write(descriptor, &byte, 1) == -1 && errno == EPERM, "the memfd is sealed against writes")
        var status = stat()
        fstat(descriptor, &status)
        #expect(Int(status.st_size) == entry.serialized.count)
    }

    @Test func journalStreamDecidesTheDestination() throws {
        var status = stat()
        #expect(fstat(2, &status) == 0)
        #expect(LogDestination.detect(journalStream: "\(status.st_dev):\(status.st_ino)", standardErrorDescriptor: 2) == .journal)
        #expect(LogDestination.detect(journalStream: "\(status.st_dev):\(status.st_ino + 1)", standardErrorDescriptor: 2) == .standardError)
        #expect(LogDestination.detect(journalStream: nil, standardErrorDescriptor: 2) == .standardError)
        #expect(LogDestination.detect(journalStream: "nonsense", standardErrorDescriptor: 2) == .standardError)
    }

    @Test func priorities() {
        let levels: [Logger.Level] = [.trace, .debug, .info, .notice, .warning, .error, .critical]
        #expect(levels.map(JournalLogHandler.priority) == [7, 7, 6, 5, 4, 3, 2])
    }
}
