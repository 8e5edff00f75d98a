import BlueZ
import CuffSimulation
import GATTHealth
import Synchronization

/// An Omron cuff's own protocol hosted in-process (docs/omron.md §2–§4): cuff-sim's ``OmronCuff`` — the same memory,
/// unlock and packet answers cuff-sim serves over D-Bus — handed each write the Gateway makes on the unlock
/// characteristic and the transmit channels, its answers sent as notifications.
public final class EmbeddedOmronCuff: Sendable {
    private let cuff: Mutex<OmronCuff>
    private let model: OmronModel
    /// What the cuff did, as cuff-sim's log says it, in order.
    private let lines = Mutex<[String]>([])

    public init(_ spec: OmronSpec) {
        cuff = Mutex(OmronCuff(spec: spec))
        model = spec.model
    }

    /// What the clock block shows now (docs/omron.md §4a).
    public var clock: DateTime? { cuff.withLock { $0.clock } }
    /// The counter block (docs/omron.md §4).
    public var counters: OmronCounters { cuff.withLock { $0.counters } }
    /// Read answers sent with a broken check byte.
    public var corruptReadsSent: Int { cuff.withLock { $0.corruptReadsSent } }
    /// What the cuff did, in cuff-sim's words.
    public var log: [String] { lines.withLock { $0 } }

    /// The handlers of its unlock characteristic and transmit channels.
    var writeHandlers: [String: EmbeddedPeripheral.WriteHandler] {
        var handlers: [String: EmbeddedPeripheral.WriteHandler] = [
            OmronService.unlock: { [self] bytes, _, _ throws(BluezError) in
                do throws(ATTError) {
                    return notifications(try cuff.withLock { cuff throws(ATTError) in try cuff.writeUnlock(bytes) })
                } catch {
                    // Refused as bluetoothd passes an ATT error on.
                    throw BluezError(error.dbusError)
                }
            },
        ]
        for (channel, uuid) in model.stack.transmitChannels.enumerated() {
            handlers[uuid] = { [self] bytes, _, _ in notifications(cuff.withLock { $0.writeChannel(bytes, channel: channel) }) }
        }
        return handlers
    }

    /// The link dropped: the next must unlock again.
    func linkLost() {
        cuff.withLock { $0.linkLost() }
    }

    /// The cuff measures: `bytes` into `user`'s (1-based) next slot, unread.
    func measure(_ slot: OmronSlotSpec, user: Int) {
        cuff.withLock { $0.measure(slot.bytes(model.layout), user: user - 1) }
    }

    /// What the cuff sends for `reaction`, logged.
    private func notifications(_ reaction: OmronReaction) -> [EmbeddedPeripheral.Notification] {
        if let line = reaction.log { lines.withLock { $0.append(line) } }
        switch reaction.answer {
        case .unlock(let bytes)?: return [EmbeddedPeripheral.Notification(OmronService.unlock, bytes)]
        case .pieces(let pieces)?: return pieces.enumerated().map { EmbeddedPeripheral.Notification(model.stack.receiveChannels[$0.offset], $0.element) }
        case nil: return []
        }
    }
}
