import BlueZ
import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Testing

/// A private bus with cuff-sim on it and a `BluezClient` beside it, the way cuffd sits beside bluetoothd.
/// Events are recorded from the start, so a test waits for the next matching one in arrival order.
final class BluezHarness: Sendable {
    let bus: PrivateBus
    let emulator: BluezEmulator
    let connection: DBusConnection
    let client: BluezClient
    let delegate: RecordingPairingDelegate
    let log = LineLog()
    let events: StreamRecorder<BluezEvent>

    static let adapter = BluetoothAddress("00:1A:7D:DA:71:13")!
    static let cuff = DeviceID(adapter: adapter, address: BluetoothAddress("C4:F3:12:53:F2:C9")!)
    static let bloodPressureMeasurement = "00002a35-0000-1000-8000-00805f9b34fb"
    static let intermediateCuffPressure = "00002a36-0000-1000-8000-00805f9b34fb"

    init(_ scenarioJSON: String, delegate: RecordingPairingDelegate = RecordingPairingDelegate(), configuration: BluezClientConfiguration = BluezClientConfiguration()) async throws {
        bus = try PrivateBus()
        let log = log
        emulator = BluezEmulator(scenario: try Scenario.parse(Data(scenarioJSON.utf8)), bus: .address(bus.address)) { log.append($0) }
        try await emulator.start()
        connection = try DBusConnection.open(.address(bus.address), label: "cuffd", callTimeout: testDeadline)
        client = BluezClient(connection: connection, configuration: configuration)
        self.delegate = delegate
        events = StreamRecorder(await client.events())
        try await client.start(pairingDelegate: delegate)
    }

    deinit { connection.close() }

    func stop() async {
        await client.stop()
        connection.close()
        await emulator.stop()
    }

    /// Starts discovery and waits for the cuff's Device1.
    func discover(_ id: DeviceID = cuff) async throws {
        try await client.startDiscovery(on: id.adapter, filter: DiscoveryFilter(uuids: ["00001810-0000-1000-8000-00805f9b34fb"]))
        _ = try await events.next { if case .deviceChanged(let device, _) = $0 { device.id == id } else { false } }
    }

    /// Waits for the next value of `uuid` from `id`.
    func nextValue(_ uuid: String, of id: DeviceID = cuff, within timeout: Duration = testDeadline) async throws -> [UInt8] {
        let event = try await events.next(within: timeout) { if case .value(id, uuid, _, _) = $0 { true } else { false } }
        guard case .value(_, _, let bytes, _) = event else { throw TestFailure("not a value") }
        return bytes
    }
}

/// A pairing delegate that answers as configured and records what it was asked.
final class RecordingPairingDelegate: PairingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var questions: [String] = []
    let passkey: UInt32?

    init(passkey: UInt32? = nil) { self.passkey = passkey }

    var asked: [String] { lock.withLock { questions } }
    private func record(_ question: String) { lock.withLock { questions.append(question) } }

    func passkey(for device: DeviceID) async throws -> UInt32 {
        record("RequestPasskey \(device.address)")
        guard let passkey else { throw AgentRefusal.rejected }
        return passkey
    }
    func confirm(_ device: DeviceID, passkey: UInt32) async throws { record("RequestConfirmation \(device.address) \(passkey)") }
    func authorizePairing(_ device: DeviceID) async throws { record("RequestAuthorization \(device.address)") }
    func authorizeService(_ device: DeviceID, uuid: String) async throws { record("AuthorizeService \(device.address) \(uuid)") }
    func pairingCanceled() async { record("Cancel") }
}

/// A scenario with one cuff at C4:F3:12:53:F2:C9; `cuff` is spliced into its object.
func oneCuff(_ cuff: String, adapter: String = "") -> String {
    """
    {"adapter": {"address": "00:1A:7D:DA:71:13"\(adapter)},
     "cuffs": [{"address": "C4:F3:12:53:F2:C9", "name": "BP-1", "services": ["1810", "180A"],
                "deviceInformation": {"manufacturer": "cuffd project", "model": "SIM-1", "serial": "0001"}\(cuff)}]}
    """
}
