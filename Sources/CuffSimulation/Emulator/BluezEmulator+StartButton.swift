import BlueZ
import DBus

/// START pressed by a driver (docs/cuff-sim.md, "START pressed by the driver"): with `manualStart`, a timeline's
/// `pressStart` step waits until a driver presses START on the cuff — through `org.cuffd.Simulation1.PressStart` on
/// cuff-sim's bus, or ``pressStart(cuffAt:)`` in a test's process — so that a test presses once `cuffctl start` is
/// armed instead of racing the timeline's clock. A press that comes before the step is kept for it.
extension BluezEmulator {
    /// The well-known name, object and interface of the control a driver presses START through.
    public static let controlName = "org.cuffd.Simulation"
    public static let controlPath: DBusObjectPath = "/org/cuffd/Simulation1"
    public static let controlInterface = "org.cuffd.Simulation1"

    /// Presses START on the cuff at `address`: a timeline waiting at a `pressStart` step goes on; otherwise the press
    /// is kept for the next such step. `UnknownObject` for an address the scenario does not have.
    public func pressStart(cuffAt address: BluetoothAddress) throws(DBusError) {
        guard let index = cuffs.firstIndex(where: { $0.spec.address == address }) else {
            throw DBusError(.unknownObject, "the scenario has no cuff \(address)")
        }
        if let waiting = cuffs[index].startWaiter {
            cuffs[index].startWaiter = nil
            waiting.resume()
        } else {
            cuffs[index].startPresses += 1
            log("\(name(index)) START pressed before its timeline waits for it: kept")
        }
    }

    /// A timeline reached a `pressStart` step: with `manualStart`, returns once START was pressed (at once for a press
    /// kept from before).
    func waitForStart(cuff index: Int) async {
        guard manualStart else { return }
        guard cuffs[index].startPresses == 0 else {
            cuffs[index].startPresses -= 1
            return
        }
        log("\(name(index)) waiting for START (\(Self.controlInterface).PressStart)")
        await withCheckedContinuation { cuffs[index].startWaiter = $0 }
    }

    /// Opens a connection of its own for the control, which a restart of the emulated bluetoothd leaves alone, and
    /// takes ``controlName``.
    func openControl() async throws(CuffSimError) {
        let control: DBusConnection
        do {
            control = try DBusConnection.open(bus, label: "cuff-sim control")
        } catch {
            throw .busUnavailable(error.description)
        }
        controlConnection = control
        await control.export([DBusInterface(Self.controlInterface, methods: [
            .init("PressStart", inputs: [.init("address", .string)]) { [self] call in
                let text: String = try call.argument(0)
                guard let address = BluetoothAddress(text) else {
                    throw DBusError(.invalidArgs, "\"\(text)\" is not an address like C4:F3:12:53:F2:C9")
                }
                try await pressStart(cuffAt: address)
                return []
            },
        ])], at: Self.controlPath)
        do {
            guard try await control.requestName(Self.controlName) == .primaryOwner else {
                throw CuffSimError.busUnavailable("\(Self.controlName) is already owned on this bus")
            }
        } catch let error as CuffSimError {
            throw error
        } catch {
            throw .busUnavailable("\(error)")
        }
        log("START pressed through \(Self.controlName) \(Self.controlPath) \(Self.controlInterface).PressStart")
    }
}
