import BlueZ
import Daemon
import Foundation
import Gateway
import GATTHealth
import Logging
import Testing

/// A swift-log handler that keeps what was logged, for checks of levels, messages and metadata.
final class CapturedLog: LogHandler, @unchecked Sendable {
    struct Entry { let level: Logger.Level; let message: String; let metadata: Logger.Metadata }
    private let lock = NSLock()
    private var captured: [Entry] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.MetadataValue? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    var entries: [Entry] { lock.withLock { captured } }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        lock.withLock { captured.append(Entry(level: level, message: message.description, metadata: metadata ?? [:])) }
    }
}

@Suite("Gateway events in the journal")
struct GatewayLogTests {
    static let cuff = BluetoothAddress("C4:F3:12:53:F2:C9")!
    static let reading = Reading(
        device: DeviceIdentity(address: cuff), userID: 1, person: "alice", unit: .millimetresOfMercury,
        systolic: MedFloat16(mantissa: 122, exponent: 0)!, diastolic: MedFloat16(mantissa: 80, exponent: 0)!,
        meanArterialPressure: nil, pulseRate: MedFloat16(mantissa: 72, exponent: 0)!, status: nil, deviceTime: nil,
        receivedAt: Date(), payload: [0x1E])

    @Test("Readings always, sessions only from Detail=sessions on")
    func detailDecides() {
        for detail in Configuration.JournalDetail.allCases {
            let captured = CapturedLog()
            let log = GatewayLog(detail: detail, logger: Logger(label: "test") { _ in captured })
            log.log(.session(Self.cuff, .stateChanged(.connecting)))
            log.log(.session(Self.cuff, .readingStored(Self.reading, .stored)))
            let reading = captured.entries.first { $0.metadata["MESSAGE_ID"] == "\(ReadingLog.readingStoredMessageID)" }
            #expect(reading?.metadata["BP_SYSTOLIC"] == "122")
            #expect(reading?.metadata["BP_PERSON"] == "alice")
            #expect(captured.entries.contains { $0.message.contains("connecting") } == (detail != .readings))
        }
    }
}
