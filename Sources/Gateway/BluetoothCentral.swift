import BlueZ
import DBus

/// The Bluetooth side of the Gateway: exactly what ``CuffGateway`` asks of bluetoothd, and nothing else
/// (docs/gateway.md, "Seams"). ``BluezClient`` is the one the daemon uses, over D-Bus; tests put an in-memory
/// central in its place and drive it step by step, as swift-nio's `EmbeddedChannel` stands in for a socket.
///
/// A central keeps a mirror of the adapters, devices and characteristics it knows, and announces every change
/// to it as a ``BluezEvent``, applied to the mirror before it is delivered (so a subscriber that asks the
/// mirror after an event sees what the event says); each write made through it is announced too, as it goes out
/// (``BluezEvent/write(_:_:)``, what a capture records of the host's part, docs/capture.md). What the mirror does
/// not announce — reads, the outcome of a pairing — is each call's answer. Calls that fail throw ``BluezError``,
/// whose text the Gateway passes on to the person.
public protocol BluetoothCentral: Actor {
    /// Registers `pairingDelegate` as the agent that answers bluetoothd's pairing questions, loads the
    /// mirror and starts following bluetoothd (without bluetoothd, it waits for it).
    func start(pairingDelegate: any PairingDelegate) async throws
    /// Stops following bluetoothd and ends every stream ``events()`` returned.
    func stop() async
    /// Every change to the mirror from now on; each call returns a stream of its own.
    func events() -> AsyncStream<BluezEvent>

    var adapters: [Adapter] { get }
    var devices: [Device] { get }
    func device(_ id: DeviceID) -> Device?
    func characteristics(of device: DeviceID) -> [GattCharacteristic]
    func characteristic(_ uuid: String, of device: DeviceID) -> GattCharacteristic?
    /// The descriptors beneath `device`'s characteristics (a capture's walk of the GATT database, docs/capture.md).
    func descriptors(of device: DeviceID) -> [GattDescriptor]
    /// The paths of the characteristics bluetoothd holds beneath `device` now, asked of bluetoothd rather than the
    /// mirror, whose signals may still be on their way to it (docs/reference/BLUEZ-DBUS.md §6); nil without an answer.
    func characteristicsOnBus(of device: DeviceID) async -> Set<DBusObjectPath>?

    /// Starts discovery on `adapter` with `filter` (docs/reference/BLUEZ-DBUS.md §2); devices found appear
    /// in the mirror.
    func startDiscovery(on adapter: BluetoothAddress, filter: DiscoveryFilter) async throws(BluezError)
    func stopDiscovery(on adapter: BluetoothAddress) async

    /// Returns once the link is up (docs/reference/BLUEZ-DBUS.md §3).
    func connect(_ id: DeviceID) async throws(BluezError)
    func disconnect(_ id: DeviceID) async throws(BluezError)
    /// Pairs (connecting first if needed) and returns once the mirror shows the device paired (§5); the
    /// delegate given to ``start(pairingDelegate:)`` is asked what bluetoothd asks.
    func pair(_ id: DeviceID, timeout: Duration) async throws(BluezError)
    /// Returns once the mirror shows `trusted`.
    func setTrusted(_ id: DeviceID, _ trusted: Bool) async throws(BluezError)
    /// Removes the device and its bond (§11); returns once the mirror no longer holds it.
    func remove(_ id: DeviceID) async throws(BluezError)
    /// The capability the pairing agent registers with (§5).
    func setAgentCapability(_ capability: AgentCapability) async

    /// Keeps notifications or indications enabled on the characteristics `uuids` of `device`, now and
    /// whenever they are exported again; each session that starts is announced as ``BluezEvent/notifying(_:uuid:)``
    /// (§7).
    func keepNotifying(_ device: DeviceID, uuids: Set<String>) async
    /// Ends the sessions on `device` and forgets the wish.
    func stopNotifying(_ device: DeviceID) async
    /// Whether sessions cover every wished-for characteristic `device` exports.
    func isNotifying(_ device: DeviceID) -> Bool
    /// Keeps sessions on the characteristics `uuids` of `device` for a capture (docs/capture.md), beside the
    /// Gateway's: kept as ``keepNotifying(_:uuids:)``'s are, never counted by ``isNotifying(_:)``.
    func keepCaptureNotifying(_ device: DeviceID, uuids: Set<String>) async
    /// Ends the capture's sessions on `device` that ``keepNotifying(_:uuids:)`` does not wish for too.
    func stopCaptureNotifying(_ device: DeviceID) async

    func readValue(_ uuid: String, of device: DeviceID) async throws(BluezError) -> [UInt8]
    func readDescriptor(_ descriptor: GattDescriptor) async throws(BluezError) -> [UInt8]
    func writeValue(_ bytes: [UInt8], to uuid: String, of device: DeviceID, type: BluezClient.WriteType) async throws(BluezError)
}

extension BluetoothCentral {
    /// A Write Request (docs/reference/BLUEZ-DBUS.md §8: RACP, control points and Current Time are written so).
    func writeValue(_ bytes: [UInt8], to uuid: String, of device: DeviceID) async throws(BluezError) {
        try await writeValue(bytes, to: uuid, of: device, type: .request)
    }
}

/// bluetoothd over D-Bus, the central of the daemon.
extension BluezClient: BluetoothCentral {}
