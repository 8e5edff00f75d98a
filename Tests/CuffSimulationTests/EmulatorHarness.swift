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

    init(_ scenarioJSON: String) async throws {
        bus = try PrivateBus()
        let scenario = try Scenario.parse(Data(scenarioJSON.utf8))
        let events = events
        emulator = BluezEmulator(scenario: scenario, bus: .address(bus.address)) { events.append($0) }
        try await emulator.start()
        client = try DBusConnection.open(.address(bus.address), label: "client")
    }

    deinit {
        client.close()
    }

    func stop() async {
        await emulator.stop()
        client.close()
    }

    func call(_ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await client.call("org.bluez", path, interface, member, arguments, timeout: .seconds(10))
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
        StreamRecorder(try await client.signals(matching: MatchRule(sender: "org.bluez")))
    }

    /// The characteristic object of `uuid` (16-bit like "2a35", or a full 128-bit UUID) under the device,
    /// from the tree, waited for up to 2 s as a client must: a first resolution turns `ServicesResolved`
    /// true before the objects are exported (docs/reference/BLUEZ-DBUS.md §6, docs/acceptance.md).
    func characteristicPath(_ uuid: String) async throws -> DBusObjectPath {
        let uuid = uuid.count == 4 ? "0000\(uuid.lowercased())-0000-1000-8000-00805f9b34fb" : uuid
        let deadline = ContinuousClock.now + .seconds(2)
        repeat {
            for (path, interfaces) in try await managedObjects() {
                if let characteristic = interfaces["org.bluez.GattCharacteristic1"],
                   try characteristic.property("UUID", as: String.self) == uuid {
                    return path
                }
            }
            try await Task.sleep(for: .milliseconds(10))
        } while ContinuousClock.now < deadline
        throw TestFailure("no characteristic \(uuid)")
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
        let resolutions = events.all.filter { $0.hasSuffix("services resolved") }.count
        _ = try await call(Self.device, "org.bluez.Device1", "Connect")
        _ = try await signals.next { $0.changes(Self.device)?["ServicesResolved"] == .boolean(true) }
        let deadline = ContinuousClock.now + .seconds(2)
        while events.all.filter({ $0.hasSuffix("services resolved") }).count == resolutions, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
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
