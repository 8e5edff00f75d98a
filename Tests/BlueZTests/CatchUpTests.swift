import BlueZ
import DBus
import DBusTestSupport
import Testing

/// The mirror caught up with a reply (`BluezClient.catchUp`): a condition on what has arrived, not a time. A stand-in
/// bluetoothd on a private bus signals a flood of changes and then the one the test looks for, all before its reply,
/// as bluetoothd's gdbus sends them (docs/reference/BLUEZ-DBUS.md §1).
@Suite("BlueZ client: caught up with a reply")
struct CatchUpTests {
    static let adapterPath: DBusObjectPath = "/org/bluez/hci0"
    static let devicePath: DBusObjectPath = "/org/bluez/hci0/dev_C4_F3_12_53_F2_C9"
    static let flood = 2_000

    @Test("Once caught up after a reply, the mirror shows the state signalled before it, behind any number of signals")
    func mirrorShowsWhatCameBeforeTheReply() async throws {
        let bus = try PrivateBus()
        let bluetoothd = try DBusConnection.open(.address(bus.address), label: "bluetoothd", callTimeout: testDeadline)
        let cuffd = try DBusConnection.open(.address(bus.address), label: "cuffd", callTimeout: testDeadline)
        defer { bluetoothd.close(); cuffd.close() }
        #expect(try await bluetoothd.requestName("org.bluez") == .primaryOwner)
        await bluetoothd.addObjectManager(at: .root)
        await bluetoothd.export([DBusInterface("org.bluez.Adapter1", properties: [.init("Address", "00:1A:7D:DA:71:13"), .init("Powered", true)])], at: Self.adapterPath)
        let device = "org.bluez.Device1"
        await bluetoothd.export([DBusInterface(device, methods: [
            // A test's own method: the flood of RSSI changes, then Trusted, then the reply.
            .init("Flood") { _ in
                for step in 0..<Self.flood {
                    try await bluetoothd.setProperties(["RSSI": .int16(Int16(-40 - step % 50))], interface: device, at: Self.devicePath)
                }
                try await bluetoothd.setProperties(["Trusted": .boolean(true)], interface: device, at: Self.devicePath)
                return []
            },
        ], properties: [
            .init("Address", "C4:F3:12:53:F2:C9"), .init("Adapter", .objectPath(Self.adapterPath)),
            .init("Trusted", false), .init("Paired", false), .init("Connected", false), .init("RSSI", .int16(-40)),
        ])], at: Self.devicePath)

        let client = BluezClient(connection: cuffd)
        try await client.start(pairingDelegate: RefusingPairingDelegate())
        let id = DeviceID(adapter: BluetoothAddress("00:1A:7D:DA:71:13")!, address: BluetoothAddress("C4:F3:12:53:F2:C9")!)
        #expect(await client.device(id)?.trusted == false)

        _ = try await cuffd.call("org.bluez", Self.devicePath, device, "Flood")
        await client.catchUp()
        #expect(await client.device(id)?.trusted == true)
        await client.stop()
    }
}

/// A pairing delegate that refuses everything: the test pairs nothing.
private struct RefusingPairingDelegate: PairingDelegate {
    func passkey(for device: DeviceID) async throws -> UInt32 { throw AgentRefusal.rejected }
    func confirm(_ device: DeviceID, passkey: UInt32) async throws { throw AgentRefusal.rejected }
    func authorizePairing(_ device: DeviceID) async throws { throw AgentRefusal.rejected }
    func authorizeService(_ device: DeviceID, uuid: String) async throws { throw AgentRefusal.rejected }
    func pairingCanceled() async {}
}
