import GATTHealth

/// An emulated Omron cuff's memory and session (docs/omron.md §2–§4): the bytes a host reads and writes by
/// address, laid out as the model's table says, the pairing key, and whether this link is unlocked. A value: whoever
/// hosts the cuff (cuff-sim's bluetoothd, an in-memory central in tests) hands it each write and sends what it
/// answers (``OmronReaction``).
public struct OmronCuff: Sendable {
    let spec: OmronSpec
    var model: OmronModel { spec.model }
    /// The memory, from address 0; unwritten bytes are `FF`.
    private(set) var memory: [UInt8]
    /// The key programmed while the cuff showed "P"; nil before the first pairing.
    var key: [UInt8]?
    var pairingMode: Bool
    /// Between an accepted `02…` write and the key.
    var programming = false
    /// This link gave the right key or token; always, on a 0xFE4A model without unlock (docs/omron.md §7).
    var unlocked = false
    /// Pieces of the packet the host is writing on the transmit channels.
    var incoming: OmronPacketAssembler
    /// Read answers still to be sent with a broken check byte.
    var corruptReadsLeft: Int
    /// The first end of transmission starts the cuff's timeline.
    var transmissions = 0

    public init(spec: OmronSpec) {
        self.spec = spec
        pairingMode = spec.pairingMode
        corruptReadsLeft = spec.corruptReads
        incoming = OmronPacketAssembler(spec.model.stack)
        unlocked = !spec.model.stack.needsUnlock
        let users = spec.model.userStartAddresses
        let end = Int(users.last!) + spec.model.slotsPerUser * spec.model.layout.size
        memory = [UInt8](repeating: 0xFF, count: max(end, Int(spec.model.settingsWriteAddress) + 0x40))
        var counters = OmronCounters(nextSlots: Array(repeating: 0, count: spec.model.users), unread: Array(repeating: 0, count: spec.model.users))
        for (user, userSpec) in spec.users.enumerated() {
            for (offset, slot) in userSpec.records.enumerated() {
                store(slot.bytes(spec.model.layout), user: user, slot: (userSpec.firstSlot + offset) % spec.model.slotsPerUser)
            }
            counters.nextSlots[user] = (userSpec.firstSlot + userSpec.records.count) % spec.model.slotsPerUser
            counters.unread[user] = userSpec.records.count - userSpec.read
        }
        self.counters = counters
        if let clock = spec.model.clock, let time = spec.clock {
            write(spec.model.settingsReadAddress + clock.offset, clock.setting(time, in: [UInt8](repeating: 0, count: clock.size)))
        }
    }

    /// What the clock block shows now, on a model whose clock is known.
    public var clock: DateTime? {
        model.clock.flatMap { $0.time(in: read(model.settingsReadAddress + $0.offset, count: $0.size)) }
    }

    /// The counter block at the settings read address (docs/omron.md §4).
    public var counters: OmronCounters {
        get { (try? OmronCounters(decoding: read(model.settingsReadAddress, count: model.counterBlockSize), model: model))! }
        set { write(model.settingsReadAddress, newValue.encoded(model: model)) }
    }

    /// The link dropped: a new one must unlock again.
    public mutating func linkLost() {
        unlocked = !model.stack.needsUnlock
        programming = false
        incoming.reset()
    }

    /// A new record for `user` (0-based) in its next slot, counted unread (at most a ringful).
    public mutating func measure(_ bytes: [UInt8], user: Int) {
        var counters = self.counters
        store(bytes, user: user, slot: counters.nextSlots[user])
        counters.nextSlots[user] = (counters.nextSlots[user] + 1) % model.slotsPerUser
        counters.unread[user] = min(counters.unread[user] + 1, model.slotsPerUser)
        self.counters = counters
    }

    func read(_ address: UInt16, count: Int) -> [UInt8] {
        (Int(address) ..< Int(address) + count).map { memory.indices.contains($0) ? memory[$0] : 0xFF }
    }

    /// A host write: at the settings write address it changes the settings (read address, same offset);
    /// elsewhere the bytes themselves.
    mutating func hostWrite(_ address: UInt16, _ bytes: [UInt8]) {
        let settings = Int(model.settingsWriteAddress)
        if (settings ..< settings + 0x40).contains(Int(address)) {
            write(model.settingsReadAddress + (address - model.settingsWriteAddress), bytes)
        } else {
            write(address, bytes)
        }
    }

    private mutating func store(_ bytes: [UInt8], user: Int, slot: Int) {
        write(model.address(user: user, slot: slot), bytes)
    }

    private mutating func write(_ address: UInt16, _ bytes: [UInt8]) {
        for (offset, byte) in bytes.enumerated() where memory.indices.contains(Int(address) + offset) {
            memory[Int(address) + offset] = byte
        }
    }
}
