import BlueZ
import DBus
import Logging

/// What sends cuffd's signals: its bus connection; in tests, one whose sends fail.
protocol SignalEmitter: Sendable {
    func emitSignal(_ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue]) throws(DBusError)
}

extension DBusConnection: SignalEmitter {}

/// The signals of `org.cuffd.Gateway1` (docs/dbus-api.md), each naming only its cuff: a signal that cannot be sent
/// is logged with its cause and what its listeners miss — a lost `ReadingStored` leaves cuff-forward and
/// `cuffctl readings --follow` asleep until the next one.
struct GatewaySignals: Sendable {
    let emitter: any SignalEmitter
    let logger: Logger

    /// A reading of the cuff at `address` was stored.
    func readingStored(_ address: BluetoothAddress) {
        send("ReadingStored", address, [.objectPath(ControlAPI.cuffPath(address))],
             missed: "cuff-forward and `cuffctl readings --follow` learn of the reading only with the next one")
    }

    /// A batch of heart-rate samples of the sensor at `address` was stored.
    func heartRatesStored(_ address: BluetoothAddress) {
        send("HeartRatesStored", address, [.objectPath(ControlAPI.cuffPath(address))],
             missed: "`cuffctl heart-rate --follow` learns of the samples only with the next batch")
    }

    /// Pairing the cuff at `address` waits for the passkey it displays.
    func passkeyRequested(_ address: BluetoothAddress) {
        send("PasskeyRequested", address, [.string(address.description)], missed: "`cuffctl pair` does not ask for the passkey")
    }

    /// Readings were deleted, entered by hand or annotated on request: no cuff to name.
    func readingsChanged() {
        send("ReadingsChanged", nil, [], missed: "cuff-forward and `cuffctl readings --follow` learn of the change only with the next reading")
    }

    private func send(_ member: String, _ address: BluetoothAddress?, _ arguments: [DBusValue], missed: String) {
        do {
            try emitter.emitSignal(ControlAPI.path, ControlAPI.interfaceName, member, arguments)
        } catch {
            logger.error("Could not send the \(member) signal\(address.map { " for \($0)" } ?? "") (\(error)): \(missed)")
        }
    }
}
