import BlueZ
import CuffSimulation
import DBus
import DBusTestSupport
import Foundation
import Testing

/// A private bus with a `BluezEmulator` on it and a client connection, the way cuffd will sit
/// beside bluetoothd. Signals are subscribed before the calls that trigger them.
final class EmulatorHarness: Sendable {
    let bus: PrivateBus
    let emulator: BluezEmulator
    let client: DBusConnection
    let events = LineLog()

    static let adapter: DBusObjectPath = "/org/bluez/hci0"
    static let device: DBusObjectPath = "/org/bluez/hci0/dev_C4_F3_12_53_F2_C9"
    static let address = BluetoothAddress("C4:F3:12:53:F2:C9")!
    /// How the emulator's event lines name the cuff.
    static let cuffName = "BP-1 (C4:F3:12:53:F2:C9)"

    /// With `manualStart`, a timeline's `pressStart` step waits for START (docs/cuff-sim.md, "START pressed by the driver").
    init(_ scenarioJSON: String, manualStart: Bool = false) async throws {
        bus = try PrivateBus()
        let scenario = try Scenario.parse(Data(scenarioJSON.utf8))
        let events = events
        emulator = BluezEmulator(scenario: scenario, bus: .address(bus.address), manualStart: manualStart) { events.append($0) }
        try await emulator.start()
        client = try DBusConnection.open(.address(bus.address), label: "client", callTimeout: testDeadline)
    }

    deinit {
        client.close()
    }

    func stop() async {
        await emulator.stop()
        client.close()
    }

    func call(_ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await client.call("org.bluez", path, interface, member, arguments, timeout: testDeadline)
    }

    func property(_ path: DBusObjectPath, _ interface: String, _ name: String) async throws -> DBusValue {
        let reply = try await call(path, StandardInterface.properties, "Get", [.string(interface), .string(name)])
        guard case .variant(let value)? = reply.first else { throw TestFailure("Get \(name) answered \(reply)") }
        return value
    }

    func managedObjects() async throws -> [DBusObjectPath: [String: DBusProperties]] {
        try await call(.root, StandardInterface.objectManager, "GetManagedObjects")[0].decode()
    }

    /// Records every signal org.bluez sends from now on, in arrival order.
    func recordSignals() async throws -> StreamRecorder<DBusMessage> {
        try await client.recordSignals(matching: MatchRule(sender: "org.bluez"))
    }

    /// Returns once each of `recordings` holds every signal the emulator sent before this call.
    func sync(_ recordings: [StreamRecorder<DBusMessage>]) async throws {
        for recording in recordings { try await client.sync(recording, with: "org.bluez") }
    }

    func sync(_ recordings: StreamRecorder<DBusMessage>...) async throws { try await sync(recordings) }

    /// Returns once the emulator has nothing under way (`BluezEmulator.settle()`) and each of `recordings` holds
    /// every signal it sent: the sync point for "nothing more arrives".
    func settle(_ recordings: StreamRecorder<DBusMessage>...) async throws {
        let emulator = emulator
        try await withDeadline("cuff-sim settling") { await emulator.settle() }
        try await sync(recordings)
    }

    /// The characteristic object of `uuid` (16-bit like "2a35", or a full 128-bit UUID) under the device,
    /// waited for as a client must: a first resolution turns `ServicesResolved` true before the objects are
    /// exported (docs/reference/BLUEZ-DBUS.md §6, docs/acceptance.md).
    func characteristicPath(_ uuid: String) async throws -> DBusObjectPath {
        let uuid = Self.fullUUID(uuid)
        let signals = try await recordSignals()
        if let path = try await exportedCharacteristic(uuid) { return path }
        let added = try await signals.next { message in
            guard message.member == "InterfacesAdded",
                  let interfaces = try? message.argument(1, as: [String: DBusProperties].self) else { return false }
            return (try? interfaces["org.bluez.GattCharacteristic1"]?.property("UUID", as: String.self)) == uuid
        }
        return try added.argument(0)
    }

    /// The characteristic object of `uuid` if it is on the bus now.
    func exportedCharacteristic(_ uuid: String) async throws -> DBusObjectPath? {
        let uuid = Self.fullUUID(uuid)
        for (path, interfaces) in try await managedObjects() {
            if let characteristic = interfaces["org.bluez.GattCharacteristic1"], try characteristic.property("UUID", as: String.self) == uuid {
                return path
            }
        }
        return nil
    }

    static func fullUUID(_ uuid: String) -> String {
        uuid.count == 4 ? "0000\(uuid.lowercased())-0000-1000-8000-00805f9b34fb" : uuid
    }

    /// `ReadValue` on a characteristic.
    func read(_ path: DBusObjectPath) async throws -> [UInt8] {
        try await call(path, "org.bluez.GattCharacteristic1", "ReadValue", [[String: DBusVariant]().dbusValue])[0].decode()
    }

    /// `WriteValue` with option `type` (`request` as cuffd's BlueZ client writes; nil for none).
    func write(_ bytes: [UInt8], to path: DBusObjectPath, type: String? = "request") async throws {
        let options: [String: DBusVariant] = type.map { ["type": DBusVariant($0)] } ?? [:]
        _ = try await call(path, "org.bluez.GattCharacteristic1", "WriteValue", [.bytes(bytes), options.dbusValue])
    }

    /// `StartNotify` on a characteristic.
    func startNotify(_ path: DBusObjectPath) async throws {
        _ = try await call(path, "org.bluez.GattCharacteristic1", "StartNotify")
    }

    /// Connects and waits until services are resolved and every GATT object is on the bus: a first
    /// resolution turns `ServicesResolved` true before the objects are exported (docs/reference/BLUEZ-DBUS.md §6,
    /// docs/acceptance.md), so the emulator's own "services resolved" line marks the end.
    func connectAndResolve() async throws {
        let signals = try await recordSignals()
        let resolutions = events.count("services resolved")
        _ = try await call(Self.device, "org.bluez.Device1", "Connect")
        _ = try await signals.next { $0.changes(Self.device)?["ServicesResolved"] == .boolean(true) }
        try await events.waitFor("services resolved", count: resolutions + 1)
    }

    /// Starts discovery and waits for the cuff's Device1 object.
    func discover() async throws {
        let signals = try await recordSignals()
        _ = try await call(Self.adapter, "org.bluez.Adapter1", "StartDiscovery")
        _ = try await signals.next { $0.member == "InterfacesAdded" && $0.arguments.first == .objectPath(Self.device) }
    }
}

extension DBusMessage {
    /// The changed properties when this is PropertiesChanged on `path`.
    func changes(_ path: DBusObjectPath) -> [String: DBusValue]? {
        guard member == "PropertiesChanged", self.path == path,
              let changed = try? argument(1, as: DBusProperties.self) else { return nil }
        return changed.mapValues(\.value)
    }
}
