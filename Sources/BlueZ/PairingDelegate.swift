/// Answers what bluetoothd asks cuffd's `Agent1` while pairing (`doc/agent-api.txt`). Throwing
/// ``AgentRefusal`` refuses; the agent turns it into `org.bluez.Error.Rejected` or `Canceled`.
public protocol PairingDelegate: Sendable {
    /// `RequestPasskey`: the six-digit key a cuff displays (Silvercrest SBM69; docs/reference/GATT-HEALTH.md §13.1).
    func passkey(for device: DeviceID) async throws -> UInt32
    /// `RequestConfirmation`: numeric comparison.
    func confirm(_ device: DeviceID, passkey: UInt32) async throws
    /// `RequestAuthorization`: Just Works pairing asks an agent that has a user interface.
    func authorizePairing(_ device: DeviceID) async throws
    /// `AuthorizeService`: a device wants to use a local profile.
    func authorizeService(_ device: DeviceID, uuid: String) async throws
    /// `Cancel`: bluetoothd gave up the request that is pending.
    func pairingCanceled() async
}

/// How an agent refuses (`doc/agent-api.txt`: "Possible errors: org.bluez.Error.Rejected,
/// org.bluez.Error.Canceled").
public enum AgentRefusal: Error, Sendable {
    case rejected
    case canceled
}

/// The IO capability an agent registers with (`AgentManager1.RegisterAgent`); it decides the pairing
/// method SMP picks (docs/reference/BLUEZ-DBUS.md §5).
public enum AgentCapability: String, Sendable, CaseIterable {
    case displayOnly = "DisplayOnly"
    case displayYesNo = "DisplayYesNo"
    case keyboardOnly = "KeyboardOnly"
    case noInputNoOutput = "NoInputNoOutput"
    case keyboardDisplay = "KeyboardDisplay"
}
