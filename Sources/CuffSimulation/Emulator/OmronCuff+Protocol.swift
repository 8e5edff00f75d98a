import GATTHealth

/// What an Omron cuff does with one write (docs/omron.md §2–§3): what it sends back, and a line for the log.
public struct OmronReaction: Sendable, Equatable {
    /// What the cuff notifies in answer.
    public enum Answer: Sendable, Equatable {
        /// On the unlock characteristic.
        case unlock([UInt8])
        /// On the receive channels, piece `n` on channel `n`.
        case pieces([[UInt8]])
    }

    public var answer: Answer?
    /// What cuff-sim's log says of it, after the cuff's name; nil for a piece of a packet not yet whole.
    public var log: String?
    /// The first end of transmission: a cuff's timeline starts then (docs/cuff-sim.md).
    public var endedFirstTransmission = false
}

/// The unlock characteristic's key programming and unlock, or the 0xFE4A service's token unlock (§2), and packets on
/// the transmit channels answered on the receive channels (§3) from the memory (§4). What the sources leave open is
/// an assumption of docs/omron.md: the refusals `82 01`, `80 01`, `81 01` and `91 01`, and silence towards packets
/// that arrive broken or before the unlock (or the key's programming).
extension OmronCuff {
    /// A write to the unlock characteristic.
    public mutating func writeUnlock(_ value: [UInt8]) throws(ATTError) -> OmronReaction {
        guard model.stack == .classic else { return try writeToken(value) }
        guard value.count == 1 + OmronUnlock.keyLength else { throw .invalidAttributeValueLength }
        let key = Array(value.dropFirst())
        let answer: [UInt8]
        switch value[0] {
        case 0x02:
            programming = pairingMode
            answer = pairingMode ? [0x82, 0x00] : [0x82, 0x01]
        case 0x00:
            answer = programming ? [0x80, 0x00] : [0x80, 0x01]
            if programming {
                // The link that programmed the key may transmit at once (omblepy's -p starts and ends a
                // transmission with no unlock; docs/omron.md §2).
                self.key = key
                programming = false
                pairingMode = false
                unlocked = true
            }
        case 0x01:
            unlocked = self.key == key
            answer = unlocked ? [0x81, 0x00] : [0x81, 0x01]
        default:
            throw .valueNotAllowed
        }
        return OmronReaction(answer: .unlock(answer), log: "Omron unlock written: \(Hex.bytes(value.prefix(1))) …")
    }

    /// The 0xFE4A token unlock (docs/omron.md §2; hass-omron `omron_driver.py` `_token_unlock`): `11`, 4 bytes,
    /// 15 × `00`, answered `91 00` and the same 4 bytes; `91 01` and the bytes when the scenario refuses it.
    private mutating func writeToken(_ value: [UInt8]) throws(ATTError) -> OmronReaction {
        guard model.stack.needsUnlock else { throw .writeNotPermitted }
        guard value.count == OmronUnlock.tokenUnlock([0, 0, 0, 0]).count else { throw .invalidAttributeValueLength }
        guard value[0] == 0x11 else { throw .valueNotAllowed }
        let token = Array(value[1 ... OmronUnlock.tokenLength])
        unlocked = !spec.refusesToken
        return OmronReaction(answer: .unlock([0x91, unlocked ? 0x00 : 0x01] + token), log: "Omron token unlock written: \(Hex.bytes(token))")
    }

    /// A piece written to transmit channel `channel`: nothing until the packet is whole, then the answer.
    public mutating func writeChannel(_ piece: [UInt8], channel: Int) -> OmronReaction {
        guard let whole = incoming.append(piece, channel: channel) else { return OmronReaction() }
        guard case .success(let packet) = whole else { return OmronReaction(log: "Omron packet dropped: \(whole)") }
        guard unlocked else { return OmronReaction(log: "Omron packet ignored: the link is not unlocked") }
        return answer(to: packet)
    }

    /// The cuff's answer to one packet, or a log line alone for a packet it does not know.
    private mutating func answer(to packet: OmronPacket) -> OmronReaction {
        let reply: OmronPacket
        var reaction = OmronReaction()
        switch packet.type {
        case OmronPacket.Kind.start:
            reply = OmronPacket(type: OmronPacket.Kind.startAnswer, data: [UInt8](repeating: 0, count: 0x10))
        case OmronPacket.Kind.read:
            reply = OmronPacket(type: OmronPacket.Kind.readAnswer, address: packet.address, data: read(packet.address, count: Int(packet.count)))
            if corruptReadsLeft > 0 {
                corruptReadsLeft -= 1
                var bytes = reply.pieces(model.stack)
                bytes[bytes.count - 1][bytes[bytes.count - 1].count - 1] ^= 0x5A
                return OmronReaction(answer: .pieces(bytes), log: "Omron read of 0x\(Hex.digits(packet.address)) answered with a broken check byte")
            }
        case OmronPacket.Kind.write:
            hostWrite(packet.address, packet.data)
            reply = OmronPacket(type: OmronPacket.Kind.writeAnswer, address: packet.address, data: packet.data)
        case OmronPacket.Kind.end:
            transmissions += 1
            reply = OmronPacket(type: OmronPacket.Kind.endAnswer)
            reaction.endedFirstTransmission = transmissions == 1
        default:
            return OmronReaction(log: "Omron packet of unknown type 0x\(Hex.digits(packet.type)) ignored")
        }
        reaction.answer = .pieces(reply.pieces(model.stack))
        reaction.log = "Omron packet 0x\(Hex.digits(packet.type)) at 0x\(Hex.digits(packet.address)) answered"
        return reaction
    }

    /// How many read answers went out with a broken check byte.
    public var corruptReadsSent: Int { spec.corruptReads - corruptReadsLeft }
}
