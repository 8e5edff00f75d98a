import BlueZ
@testable import Daemon
import Foundation
import Gateway
import GATTHealth
import HealthStore
import Testing

/// What `Start` says of a failed measurement to each caller (docs/dbus-api.md, "Who may call"): why, with the values
/// the cuff sent, only to one who may read blood-pressure readings.
@Suite("Start's failed measurement, by the caller's grants")
struct FailedMeasurementReplyTests {
    static let cuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
    static let root = HealthClient.user(uid: 0)

    /// What the Gateway makes of a 0x2A35 value that fails.
    static func failure(_ bytes: [UInt8]) throws -> FailedMeasurement {
        let interpretation = MeasurementInterpretation(
            try BloodPressureMeasurement(decoding: bytes), payload: bytes, device: DeviceIdentity(address: cuff), users: UserDirectory(),
            receivedAt: Date())
        guard case .failed(let failure) = interpretation else { throw NotAFailure() }
        return failure
    }

    struct NotAFailure: Error {}

    /// 118 mmHg over a diastolic of 0xF800 (SFLOAT −204.8), and 118 over 160.
    static let implausibleDiastolic: [UInt8] = [0x16, 0x76, 0x00, 0x00, 0xF8, 0x5A, 0x00, 0xEA, 0x07, 0x0B, 0x17, 0x07, 0x0F, 0x00, 0x42, 0x00, 0x00, 0x00]
    static let diastolicAboveSystolic: [UInt8] = [0x16, 0x76, 0x00, 0xA0, 0x00, 0x8A, 0x00, 0xEA, 0x07, 0x0B, 0x17, 0x07, 0x0F, 0x00, 0x42, 0x00, 0x00, 0x00]

    @Test("An administrator and a reader granted bloodPressure read learn why; a reader without, with a share grant, with part of it or with one person's readings, only that it failed")
    func reasonByGrant() throws {
        let store = try HealthStore.inMemory()
        for type in CorrelationType.bloodPressure.memberTypes {
            try store.setAuthorization(AuthorizationGrant(uid: 1002, type: type, canShare: false, canRead: true), by: Self.root)
            try store.setAuthorization(AuthorizationGrant(uid: 1003, type: type, canShare: true, canRead: false), by: Self.root)
            // A failed measurement is of no person the store could tell: a read of alice's readings does not cover it.
            try store.setAuthorization(AuthorizationGrant(uid: 1004, type: type, canShare: false, canRead: true, people: ["alice"]), by: Self.root)
        }
        try store.setAuthorization(AuthorizationGrant(uid: 1001, type: .bloodPressureSystolic, canShare: false, canRead: true), by: Self.root)

        let implausible = try Self.failure(Self.implausibleDiastolic)
        let crossed = try Self.failure(Self.diastolicAboveSystolic)
        func message(_ failure: FailedMeasurement, _ client: HealthClient) throws -> String {
            try FailedMeasurementReply.message(failure, from: Self.cuff, in: store, for: client)
        }
        for client in [HealthClient.daemon(uid: 0), .user(uid: 1002, groups: [100])] {
            #expect(try message(implausible, client) == "the cuff D0:5F:B8:4A:21:07 reported a failed measurement (implausible: diastolic -204.8 mmHg outside 10–300 mmHg): measure again")
            let reason = try message(crossed, client)
            #expect(reason.contains("diastolic 160 mmHg not below systolic 118 mmHg"), "\(reason)")
        }
        for uid: UInt32 in [1000, 1001, 1003, 1004] {
            #expect(try message(implausible, .user(uid: uid, groups: [100])) == "the cuff reported a failed measurement", "uid \(uid)")
            #expect(try message(crossed, .user(uid: uid, groups: [100])) == "the cuff reported a failed measurement", "uid \(uid)")
        }
    }
}
