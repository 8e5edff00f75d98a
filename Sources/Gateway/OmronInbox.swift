import FoundationEssentials
import GATTHealth

/// What an Omron cuff notifies during a download, in arrival order, for the request that waits on it
/// (docs/omron.md §2–§3): answers on the unlock characteristic, and packets joined from the receive channels.
actor OmronInbox {
    enum Message: Sendable, Equatable {
        case unlock([UInt8])
        case packet(Result<OmronPacket, OmronError>)
    }

    private let messages = Mailbox<Message>()
    private var assembler = OmronPacketAssembler()

    /// Joins pieces as `stack`'s receive channels carry them (docs/omron.md §3), from now on.
    func use(_ stack: OmronStack) {
        assembler = OmronPacketAssembler(stack)
    }

    /// A notification of the unlock characteristic.
    func unlockAnswer(_ bytes: [UInt8]) async {
        await messages.deliver(.unlock(bytes))
    }

    /// A piece from receive channel `channel`; a message once the packet is whole.
    func piece(_ bytes: [UInt8], channel: Int) async {
        if let whole = assembler.append(bytes, channel: channel) { await messages.deliver(.packet(whole)) }
    }

    /// Forgets what arrived for an earlier request (a retry starts clean).
    func clear() async {
        assembler.reset()
        await messages.clear()
    }

    /// The next message, or nil when none came within `timeout` on `clock`.
    func next(within timeout: Duration, on clock: any Clock<Duration>) async -> Message? {
        await messages.next(within: timeout, on: clock)
    }
}
