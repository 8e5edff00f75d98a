import BlueZ
import DBus
import GATTHealth

/// What bluetoothd knows about one emulated cuff, and what the cuff is doing.
struct CuffState {
    let spec: CuffSpec
    let devicePath: DBusObjectPath
    let layout: GattLayout

    /// The cuff sends advertisements (from the start, after an `advertise` step, after link loss).
    var advertising = true
    /// Its Device1 object is on the bus.
    var exported = false
    var connecting = false
    var connected = false
    var paired: Bool
    var trusted: Bool
    /// bluetoothd stops auto-connecting an untrusted device its client disconnected, until the
    /// next `Connect` (`dev_disconnect` in `src/device.c`, BLUEZ-DBUS.md §3).
    var autoConnectArmed = true
    /// The `StartNotify` sessions, by characteristic: the unique names of the clients. They
    /// outlive the link; bluetoothd re-enables them on every reconnection (BLUEZ-DBUS.md §7).
    var notifySessions: [HealthCharacteristic: Set<String>] = [:]
    /// The last value of each characteristic (reads, notifications, writes).
    var values: [HealthCharacteristic: [UInt8]] = [:]
    var timelineStarted = false
    /// A `Pair` waiting for the agent, and that agent; `CancelPairing` cancels the one and
    /// tells the other (`Agent1.Cancel`).
    var pairing: (attempt: Task<Void, any Error>, agent: (owner: String, path: DBusObjectPath)?)?
    /// Bumped whenever a pending removal of a temporary device should be forgotten.
    var removalToken = 0

    init(spec: CuffSpec, now: DateTime) {
        self.spec = spec
        devicePath = try! Bluez.adapterPath.appending(spec.address.objectPathElement)
        layout = GattLayout(spec: spec, devicePath: devicePath, now: now)
        paired = spec.bonded
        trusted = spec.bonded
        for characteristic in layout.characteristics {
            values[characteristic.characteristic] = characteristic.initialValue
        }
    }

    /// bluetoothd drops temporary devices: neither paired nor trusted (BLUEZ-DBUS.md §2).
    var isTemporary: Bool { !paired && !trusted }

    /// The characteristic whose enabling starts the cuff's script: 0x2A35 for a blood-pressure
    /// cuff, 0x2A37 for a heart-rate-only sensor.
    var scriptTrigger: HealthCharacteristic {
        spec.services.contains(.bloodPressure) ? .bloodPressureMeasurement : .heartRateMeasurement
    }

    func isNotifying(_ characteristic: HealthCharacteristic) -> Bool {
        !(notifySessions[characteristic] ?? []).isEmpty
    }
}
