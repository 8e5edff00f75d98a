import BlueZ

extension CuffGateway {
    /// Everything the Gateway changes after `init`, in one place, so that what may change while one of its
    /// methods is suspended can be read off one type.
    ///
    /// ``CuffGateway`` is reentrant: while a method awaits bluetoothd, a session, the registry or a sleep, any
    /// other may run and change any field here (docs/gateway.md, "Reentrancy"). Each field therefore says what
    /// it holds, what changes it, and what a method holding it across an await must check again. The few
    /// changes an invariant rests on go through the mutating methods below, which check the invariant in
    /// debug builds.
    struct State {
        /// The cuffs collected from, by address; each under its own device's address. Added only by
        /// ``collect(_:)`` (from `adopt`, right after `consider` checked, with no suspension between); removed
        /// by `forget` and when bluetoothd removes a cuff the configuration does not name and that does not bond anew on
        /// every link (`deviceRemoved`). Their fields change
        /// on every BlueZ event and in their provisioning tasks (``Cuff``). After an await, look the cuff up
        /// again: it may be gone, or its link down and up again.
        var cuffs: [BluetoothAddress: Cuff] = [:]
        /// What the registry remembers of each cuff (identity, Blood Pressure Feature, last sequence number,
        /// Omron key), loaded by `start`. This is the truth; `remember` changes it first, then saves a copy.
        /// Changed by `identify`, by stored readings (`rememberSequence`), by Omron key programming and by
        /// `forget`. A record is read, changed and put back within one synchronous stretch: one read before
        /// an await is stale after it.
        var records: [BluetoothAddress: CuffRecord] = [:]
        /// Addresses whose `forget` is under way, from before its first await until it returns. While an
        /// address is here, `consider` adopts nothing at it: a BlueZ event queued before `RemoveDevice`
        /// still shows the bond and would otherwise bring the cuff straight back. One `forget` per address
        /// at a time (``beginForgetting(_:)``).
        private(set) var forgetting: Set<BluetoothAddress> = []
        /// The adapter in use: the configured one, else the first powered one. Replaced by `chooseAdapter` on
        /// every adapter or bluetoothd event. A request takes it once (`usableAdapter`) and keeps that
        /// adapter's device IDs; should it change meanwhile, bluetoothd answers those IDs with an error.
        var adapter: Adapter?
        /// Armed measurement sessions, by token. Added by ``addWatcher(_:)``; each removed once, by whoever
        /// comes first — `stopMeasurement`, the timeout, a vendor abort, the stream's end — before that
        /// remover's first await, so no watcher is ended twice.
        var watchers: [Int: MeasurementWatcher] = [:]
        /// The next watcher's token; tokens are never reused.
        private(set) var nextWatcher = 0
        /// Whether the follow task is inside `handle(_:)`. BlueZ events are handled one at a time, in
        /// bluetoothd's order (a link's `Connected` before its values, its values before `Connected` false);
        /// a session's states rest on that order. `handle` asserts it.
        var handlingEvent = false
        /// Devices being captured (docs/capture.md), one capture each at a time: added by `startCapture` before its
        /// first await, removed by `finishCapture`. Each is handed every event before `handle` handles it.
        var captures: [BluetoothAddress: CuffCapture] = [:]
        /// The adapter on which cuffd keeps discovery on for the cuffs that bond anew on every link (`watchForRebonding`),
        /// nil while it does not. Set before the `StartDiscovery` it stands for is awaited, so two callers never both
        /// start it; cleared when discovery stops, or a scan's or a pairing's discovery took it over (`endDiscovery`), or
        /// the adapter changed.
        var rebondWatch: BluetoothAddress?
        /// Follows bluetoothd's events; set by `start`, canceled by `stop`.
        var followTask: Task<Void, Never>?
        /// Commits what an earlier run left in the spool; set by `start`, canceled by `stop`.
        var recoveryTask: Task<Void, Never>?

        /// Starts collecting from `cuff`. Its address must be neither collected (two sessions would each
        /// store the cuff's readings) nor being forgotten: `consider` checks both in the same synchronous
        /// stretch, which this asserts.
        mutating func collect(_ cuff: Cuff) {
            let address = cuff.device.id.address
            assert(cuffs[address] == nil, "\(address) is collected already: a second session would store its readings twice")
            assert(!forgetting.contains(address), "\(address) is being forgotten: adopting it would undo the forget")
            cuffs[address] = cuff
        }

        /// Marks `address` as being forgotten; false when a `forget` of it is already under way.
        mutating func beginForgetting(_ address: BluetoothAddress) -> Bool {
            forgetting.insert(address).inserted
        }

        mutating func endForgetting(_ address: BluetoothAddress) {
            let removed = forgetting.remove(address)
            assert(removed != nil, "\(address) was not being forgotten")
        }

        /// Arms `watcher` under a new token and returns the token.
        mutating func addWatcher(_ watcher: MeasurementWatcher) -> Int {
            let token = nextWatcher
            nextWatcher += 1
            assert(watchers[token] == nil, "watcher token \(token) reused")
            watchers[token] = watcher
            return token
        }
    }
}
