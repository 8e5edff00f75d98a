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
    /// The cuff switched itself off (``CuffSpec/switchesOffOnRecordRequest``): it never advertises again.
    var switchedOff = false
    /// Its Device1 object is on the bus.
    var exported = false
    var connecting = false
    var connected = false
    var paired: Bool
    var trusted: Bool
    /// The cuff forgot its side of the bond bluetoothd still holds (``CuffSpec/forgetsBondAfterLink``): a link over it
    /// fails until `RemoveDevice` and a fresh `Pair`.
    var bondForgotten = false
    /// bluetoothd stops auto-connecting an untrusted device its client disconnected, until the
    /// next `Connect` (`dev_disconnect` in `src/device.c`, docs/reference/BLUEZ-DBUS.md §3).
    var autoConnectArmed = true
    /// The `StartNotify` sessions, by characteristic: the unique names of the clients. They
    /// outlive the link; bluetoothd re-enables them on every reconnection (docs/reference/BLUEZ-DBUS.md §7).
    var notifySessions: [CharacteristicID: Set<String>] = [:]
    /// The last value of each characteristic (reads, notifications, writes).
    var values: [CharacteristicID: [UInt8]] = [:]
    var timelineStarted = false
    /// START presses a driver made that no `pressStart` step has taken yet, and the timeline waiting at one.
    var startPresses = 0
    var startWaiter: CheckedContinuation<Void, Never>?
    /// bluetoothd has discovered the cuff's GATT database (it caches it for a bonded cuff): the next
    /// resolution exports the objects before `ServicesResolved`, a first one after it.
    var databaseKnown = false
    /// Its GATT objects are on the bus. A bonded cuff's stay there across link losses.
    var servicesExported = false
    /// A `Pair` waiting for the agent, and that agent; `CancelPairing` cancels the one and
    /// tells the other (`Agent1.Cancel`).
    var pairing: (attempt: Task<Void, any Error>, agent: (owner: String, path: DBusObjectPath)?)?
    /// Pairing that bluetoothd started by itself after the cuff refused an access (security elevation);
    /// true when it paired.
    var elevation: Task<Bool, Never>?
    /// Bumped whenever a pending removal of a temporary device should be forgotten.
    var removalToken = 0
    /// The cuff's clock (Current Time 0x2A2B).
    var clock: CuffClock
    /// The BPS 1.1 records in the cuff's memory and its RACP procedures' rules.
    var recordMemory: RecordMemory
    /// A RACP procedure under way (a report being indicated), until its response goes out.
    var recordProcedure: Task<Void, Never>?
    /// The measurement a vendor start command began (`onStart`), until it completes or is canceled.
    var vendorMeasurement: Task<Void, Never>?
    /// An Omron cuff's memory and session (docs/omron.md).
    var omron: OmronCuff?
    /// A Microlife cuff's users and memory (docs/reference/GATT-HEALTH.md §13.12).
    var microlife: MicrolifeCuff?
    /// A recorded cuff's conversation (docs/cuff-sim.md, "Recorded cuffs"); nil for any other cuff.
    var recording: RecordedConversation?
    /// A recorded cuff's link under way: when it came up, the task playing its steps, and what wakes that task when
    /// the host writes or starts a notify session.
    var recordedLink: (start: ContinuousClock.Instant, player: Task<Void, Never>, hostActions: AsyncStream<Void>.Continuation)?

    init(spec: CuffSpec) {
        self.spec = spec
        devicePath = try! Bluez.adapterPath.appending(spec.address.objectPathElement)
        layout = GattLayout(spec: spec, devicePath: devicePath)
        paired = spec.bonded
        trusted = spec.bonded
        clock = spec.clock.map { CuffClock(showing: $0.start) } ?? .local()
        recordMemory = RecordMemory(spec)
        databaseKnown = spec.bonded
        omron = spec.omron.map(OmronCuff.init)
        microlife = spec.microlife.map(MicrolifeCuff.init)
        recording = spec.recorded.map(RecordedConversation.init)
        for characteristic in layout.characteristics {
            values[characteristic.id] = characteristic.initialValue
        }
    }

    /// The link went down: a RACP procedure under way ends with it (the cuff's own measurement goes on), and so does a
    /// recorded cuff's link. Returns, for a recorded cuff, the seconds after which it advertises again (nil: never).
    @discardableResult
    mutating func linkLost() -> Double? {
        connected = false
        recordProcedure?.cancel()
        recordProcedure = nil
        omron?.linkLost()
        recordedLink?.player.cancel()
        recordedLink?.hostActions.finish()
        recordedLink = nil
        return recording?.linkDown()
    }

    /// bluetoothd drops temporary devices: neither paired nor trusted (docs/reference/BLUEZ-DBUS.md §2).
    var isTemporary: Bool { !paired && !trusted }

    /// The characteristic whose enabling starts the cuff's script: 0x2A35 for a blood-pressure
    /// cuff, 0x2A37 for a heart-rate-only sensor.
    var scriptTrigger: CharacteristicID {
        .assigned(spec.services.contains(.bloodPressure) ? .bloodPressureMeasurement : .heartRateMeasurement)
    }

    func isNotifying(_ characteristic: CharacteristicID) -> Bool {
        !(notifySessions[characteristic] ?? []).isEmpty
    }
}
