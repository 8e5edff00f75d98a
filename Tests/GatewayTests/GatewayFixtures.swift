import BlueZ
import FoundationEssentials
import GATTHealth
import GatewayTestSupport
@testable import Gateway

enum Fixtures {
    static let cuff = DeviceIdentity(address: BluetoothAddress("C4:F3:12:53:F2:C9")!, name: "BP-1", manufacturer: "Sim", model: "SIM-1", serial: "0001")
    static let beurer = DeviceIdentity(address: BluetoothAddress("D0:1F:2A:00:00:85")!, name: "BM85")
    static let receivedAt = Date(timeIntervalSince1970: 1_790_000_000)

    /// BPM-R1: 124/86, MAP 97, pulse 51, 2024-06-15T17:17:27, no user.
    static let bpmR1: [UInt8] = [0x16, 0x7C, 0x00, 0x56, 0x00, 0x61, 0x00, 0xE8, 0x07, 0x06, 0x0F, 0x11, 0x11, 0x1B, 0x33, 0x00, 0x00, 0x00]
    /// BPM-R2: all NaN, an aborted measurement.
    static let bpmR2: [UInt8] = [0x16, 0xFF, 0x07, 0xFF, 0x07, 0xFF, 0x07, 0xE8, 0x07, 0x06, 0x17, 0x0E, 0x23, 0x0A, 0xFF, 0x07, 0x00, 0x00]
    /// BPM-R5: Beurer, user 1, 113/73, MAP 0.
    static let bpmR5: [UInt8] = [0x56, 0x71, 0x00, 0x49, 0x00, 0x00, 0x00, 0xEA, 0x07, 0x08, 0x0B, 0x14, 0x38, 0x00, 0x00, 0x41, 0x01, 0x00, 0x00]

    static func measurement(systolic: Int32, diastolic: Int32, user: UInt8?, time: DateTime?) -> [UInt8] {
        BloodPressureMeasurement(
            systolic: MedFloat16(mantissa: systolic, exponent: 0)!, diastolic: MedFloat16(mantissa: diastolic, exponent: 0)!,
            meanArterialPressure: MedFloat16(mantissa: (systolic + 2 * diastolic) / 3, exponent: 0)!, timeStamp: time,
            pulseRate: MedFloat16(mantissa: 64, exponent: 0)!, userID: user
        ).encoded()
    }

    static func cuffPressure(_ mmHg: Int32) -> [UInt8] {
        IntermediateCuffPressure(cuffPressure: MedFloat16(mantissa: mmHg, exponent: 0)!).encoded()
    }

    static let morning = DateTime(year: 2026, month: 11, day: 22, hours: 7, minutes: 30, seconds: 0)
}

/// A store that fails while `failing` is set, to show nothing is lost; it counts the commits tried.
actor FlakyStore: ReadingStore {
    let inner = InMemoryReadingStore()
    var failing = true
    private(set) var attempts = 0

    struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full" } }

    func commit(_ reading: Reading) async throws -> CommitOutcome {
        attempts += 1
        if failing { throw DiskFull() }
        return await inner.commit(reading)
    }

    func commit(heartRates samples: [HeartRateSample]) async throws -> Int {
        attempts += 1
        if failing { throw DiskFull() }
        return await inner.commit(heartRates: samples)
    }

    func recover() { failing = false }
}

/// What an armed measurement session showed until it ended: the cuff pressures, the reading, and an end other than
/// the reading (a failure, the timeout, a stop).
struct MeasurementSeen {
    var pressures: [Double] = []
    var reading: Reading?
    var otherEnd: MeasurementUpdate?

    init(_ updates: AsyncStream<MeasurementUpdate>) async {
        for await update in updates {
            switch update {
            case .state(_, .measuring(let pressure, _)): pressures.append(pressure.doubleValue)
            case .reading(_, let stored): reading = stored
            case .failed, .timedOut, .stopped: otherEnd = update
            case .state: continue
            }
        }
    }
}

/// What a session produces later, on its own timers (`laterEvents`), recorded as it comes.
struct LaterEvents {
    let recorder: EventRecorder<SessionEvent>
    let receive: @Sendable ([SessionEvent]) async -> Void

    init() {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream()
        recorder = EventRecorder(stream)
        receive = { events in for event in events { continuation.yield(event) } }
    }
}
