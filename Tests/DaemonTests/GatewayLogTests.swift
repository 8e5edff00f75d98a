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

    /// What the Gateway makes of a 0x2A35 value from the cuff.
    static func interpret(_ bytes: [UInt8]) throws -> MeasurementInterpretation {
        MeasurementInterpretation(
            try BloodPressureMeasurement(decoding: bytes), payload: bytes, device: DeviceIdentity(address: cuff),
            users: UserDirectory(), receivedAt: Date())
    }

    @Test("An implausible measurement is a failed-measurement entry naming the value and its range")
    func implausibleMeasurement() throws {
        guard case let .failed(failure) = try Self.interpret([0x00, 0x00, 0xF8, 0x00, 0xF8, 0x00, 0xF8]) else {
            Issue.record("a reading"); return
        }
        let captured = CapturedLog()
        GatewayLog(detail: .readings, logger: Logger(label: "test") { _ in captured }).log(.session(Self.cuff, .measurementFailed(failure)))
        let entry = try #require(captured.entries.first)
        #expect(entry.metadata["MESSAGE_ID"] == "\(ReadingLog.measurementFailedMessageID)")
        #expect(entry.metadata["BP_FAILURE"] == "implausible: systolic -204.8 mmHg outside 20–300 mmHg")
        #expect(entry.metadata["BP_PAYLOAD"] == "00 00 F8 00 F8 00 F8")
        #expect(entry.message.hasSuffix(": implausible: systolic -204.8 mmHg outside 20–300 mmHg"))
    }

    @Test("A reading whose pulse was dropped as implausible says so")
    func droppedPulse() throws {
        let bytes = BloodPressureMeasurement(
            systolic: MedFloat16(mantissa: 120, exponent: 0)!, diastolic: MedFloat16(mantissa: 80, exponent: 0)!,
            meanArterialPressure: MedFloat16(mantissa: 93, exponent: 0)!, pulseRate: MedFloat16(mantissa: 999, exponent: 0)!
        ).encoded()
        guard case let .reading(reading) = try Self.interpret(bytes) else { Issue.record("not a reading"); return }
        let captured = CapturedLog()
        GatewayLog(detail: .readings, logger: Logger(label: "test") { _ in captured }).log(.session(Self.cuff, .readingStored(reading, .stored)))
        let entry = try #require(captured.entries.first)
        #expect(entry.metadata["BP_DROPPED"] == "pulse 999/min outside 30–240/min")
        #expect(entry.metadata["BP_PULSE_BPM"] == nil)
        #expect(entry.message.hasSuffix("; left out as implausible: pulse 999/min outside 30–240/min"))
    }

    @Test("BP_PAYLOAD of a malformed value is hex that cuffctl decode reads back, one entry per value at Detail=packets")
    func malformedPayloadIsHex() throws {
        var caught: GATTDecodingError?
        do { _ = try BloodPressureMeasurement(decoding: [0x1E, 0x8A, 0x00]) } catch { caught = error }
        let malformed = try #require(caught)
        for detail in Configuration.JournalDetail.allCases {
            let captured = CapturedLog()
            GatewayLog(detail: detail, logger: Logger(label: "test") { _ in captured })
                .log(.session(Self.cuff, .malformedValue(.bloodPressureMeasurement, malformed, payload: [0x1E, 0x8A, 0x00])))
            let entry = try #require(captured.entries.first)
            #expect(entry.metadata["BP_PAYLOAD"] == (detail == .packets ? "1E 8A 00" : nil))
        }
    }

    @Test("Detail=packets logs every decoded packet with its bytes; the other levels do not")
    func decodedPackets() throws {
        let progress = IntermediateCuffPressure(cuffPressure: MedFloat16(mantissa: 120, exponent: 0)!)
        for detail in Configuration.JournalDetail.allCases {
            let captured = CapturedLog()
            GatewayLog(detail: detail, logger: Logger(label: "test") { _ in captured })
                .log(.packet(Self.cuff, .intermediateCuffPressure(progress), payload: progress.encoded()))
            #expect(captured.entries.count == (detail == .packets ? 1 : 0))
            guard let entry = captured.entries.first else { continue }
            #expect(entry.message.contains("cuffPressure: 120"))
            #expect(entry.metadata["BP_PAYLOAD"] == "00 78 00 FF 07 FF 07")
        }
    }
}
