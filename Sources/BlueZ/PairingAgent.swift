import DBus

/// cuffd's `org.bluez.Agent1` (`doc/agent-api.txt`): bluetoothd calls it while pairing, before `Pair`
/// replies (docs/reference/BLUEZ-DBUS.md §5, §15.2). Each method hands the question to a ``PairingDelegate``; the handlers
/// run in tasks of their own, so a delegate may wait for a person typing a passkey.
enum PairingAgent {
    static func interface(delegate: any PairingDelegate, client: BluezClient) -> DBusInterface {
        let device = DBusInterface.Argument("device", .objectPath)
        return DBusInterface(BluezName.agent, methods: [
            .init("Release") { _ in [] },
            .init("RequestPasskey", inputs: [device], outputs: [.init("passkey", .uint32)]) { call in
                let id = try await deviceID(call, client)
                let passkey = try await answer { try await delegate.passkey(for: id) }
                guard passkey <= 999_999 else { throw refusal(.rejected) }
                return [.uint32(passkey)]
            },
            .init("RequestConfirmation", inputs: [device, .init("passkey", .uint32)]) { call in
                let id = try await deviceID(call, client)
                let passkey: UInt32 = try call.argument(1)
                try await answer { try await delegate.confirm(id, passkey: passkey) }
                return []
            },
            .init("RequestAuthorization", inputs: [device]) { call in
                let id = try await deviceID(call, client)
                try await answer { try await delegate.authorizePairing(id) }
                return []
            },
            .init("AuthorizeService", inputs: [device, .init("uuid", .string)]) { call in
                let id = try await deviceID(call, client)
                let uuid: String = try call.argument(1)
                try await answer { try await delegate.authorizeService(id, uuid: uuid.lowercased()) }
                return []
            },
            // A PIN code is Bluetooth Classic pairing; cuffs are LE only.
            .init("RequestPinCode", inputs: [device], outputs: [.init("pincode", .string)]) { _ in throw refusal(.rejected) },
            .init("DisplayPinCode", inputs: [device, .init("pincode", .string)]) { _ in throw refusal(.rejected) },
            .init("DisplayPasskey", inputs: [device, .init("passkey", .uint32), .init("entered", .uint16)]) { _ in [] },
            .init("Cancel") { _ in
                await delegate.pairingCanceled()
                return []
            },
        ])
    }

    private static func deviceID(_ call: DBusMethodCall, _ client: BluezClient) async throws -> DeviceID {
        let path: DBusObjectPath = try call.argument(0)
        guard let device = await client.device(at: path) else { throw refusal(.rejected) }
        return device.id
    }

    /// Runs the delegate; any failure other than an explicit cancel is a rejection.
    private static func answer<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch AgentRefusal.canceled {
            throw refusal(.canceled)
        } catch {
            throw refusal(.rejected)
        }
    }

    private static func refusal(_ kind: AgentRefusal) -> DBusError {
        switch kind {
        case .rejected: DBusError("org.bluez.Error.Rejected", "Rejected by cuffd")
        case .canceled: DBusError("org.bluez.Error.Canceled", "Canceled by cuffd")
        }
    }
}
