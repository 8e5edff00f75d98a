import BlueZ
import GATTHealth

/// An Omron cuff's own protocol (docs/omron.md): the unlock characteristic's key programming and unlock, or
/// the 0xFE4A service's token unlock (§2), and packets on the transmit channels answered on the receive channels
/// (§3) from the cuff's memory (§4). What the sources leave open is an assumption of docs/omron.md: the refusals
/// `82 01`, `80 01`, `81 01` and `91 01`, and silence towards packets that arrive broken or before the unlock (or
/// the key's programming).
extension BluezEmulator {
    func writeOmronUnlock(_ index: Int, _ value: [UInt8]) async throws(ATTError) {
        guard var omron = cuffs[index].omron else { throw .writeNotPermitted }
        guard omron.model.stack == .classic else { return try await writeOmronToken(index, value) }
        guard value.count == 1 + OmronUnlock.keyLength else { throw .invalidAttributeValueLength }
        let key = Array(value.dropFirst())
        let answer: [UInt8]
        switch value[0] {
        case 0x02:
            omron.programming = omron.pairingMode
            answer = omron.pairingMode ? [0x82, 0x00] : [0x82, 0x01]
        case 0x00:
            answer = omron.programming ? [0x80, 0x00] : [0x80, 0x01]
            if omron.programming {
                // The link that programmed the key may transmit at once (omblepy's -p starts and ends a
                // transmission with no unlock; docs/omron.md §2).
                omron.key = key
                omron.programming = false
                omron.pairingMode = false
                omron.unlocked = true
            }
        case 0x01:
            omron.unlocked = omron.key == key
            answer = omron.unlocked ? [0x81, 0x00] : [0x81, 0x01]
        default:
            throw .valueNotAllowed
        }
        cuffs[index].omron = omron
        log("\(name(index)) Omron unlock written: \(Hex.bytes(value.prefix(1))) …")
        await send(index, .omronUnlock, answer, kind: "notified")
    }

    /// The 0xFE4A token unlock (docs/omron.md §2; hass-omron `omron_driver.py` `_token_unlock`): `11`, 4 bytes,
    /// 15 × `00`, answered `91 00` and the same 4 bytes; `91 01` and the bytes when the scenario refuses it.
    private func writeOmronToken(_ index: Int, _ value: [UInt8]) async throws(ATTError) {
        guard var omron = cuffs[index].omron, omron.model.stack.needsUnlock else { throw .writeNotPermitted }
        guard value.count == OmronUnlock.tokenUnlock([0, 0, 0, 0]).count else { throw .invalidAttributeValueLength }
        guard value[0] == 0x11 else { throw .valueNotAllowed }
        let token = Array(value[1 ... OmronUnlock.tokenLength])
        omron.unlocked = !omron.spec.refusesToken
        cuffs[index].omron = omron
        log("\(name(index)) Omron token unlock written: \(Hex.bytes(token))")
        await send(index, .omronUnlock, [0x91, omron.unlocked ? 0x00 : 0x01] + token, kind: "notified")
    }

    /// An emulated Omron cuff's counters (docs/omron.md §4), for tests; nil for another cuff.
    public func omronCounters(of address: BluetoothAddress) -> OmronCounters? {
        cuffs.first { $0.spec.address == address }?.omron?.counters
    }

    /// What an emulated Omron cuff's clock block shows (docs/omron.md §4a), for tests; nil without one.
    public func omronClock(of address: BluetoothAddress) -> DateTime? {
        cuffs.first { $0.spec.address == address }?.omron?.clock
    }

    func writeOmronChannel(_ index: Int, channel: Int, _ piece: [UInt8]) async throws(ATTError) {
        guard cuffs[index].omron != nil else { throw .writeNotPermitted }
        guard let whole = cuffs[index].omron?.incoming.append(piece, channel: channel) else { return }
        guard case .success(let packet) = whole else {
            log("\(name(index)) Omron packet dropped: \(whole)")
            return
        }
        guard cuffs[index].omron?.unlocked == true else {
            log("\(name(index)) Omron packet ignored: the link is not unlocked")
            return
        }
        guard let answer = answer(index, to: packet) else { return }
        for (channel, piece) in answer.enumerated() where piece.count <= GattLayout.attPayload {
            await send(index, .omronReceive(channel), piece, kind: "notified")
        }
    }

    /// The cuff's answer to one packet, in pieces, or nil for a packet it does not know.
    private func answer(_ index: Int, to packet: OmronPacket) -> [[UInt8]]? {
        guard var omron = cuffs[index].omron else { return nil }
        defer { cuffs[index].omron = omron }
        let reply: OmronPacket
        switch packet.type {
        case OmronPacket.Kind.start:
            reply = OmronPacket(type: OmronPacket.Kind.startAnswer, data: [UInt8](repeating: 0, count: 0x10))
        case OmronPacket.Kind.read:
            reply = OmronPacket(type: OmronPacket.Kind.readAnswer, address: packet.address, data: omron.read(packet.address, count: Int(packet.count)))
            if omron.corruptReadsLeft > 0 {
                omron.corruptReadsLeft -= 1
                var bytes = reply.pieces(omron.model.stack)
                bytes[bytes.count - 1][bytes[bytes.count - 1].count - 1] ^= 0x5A
                log("\(name(index)) Omron read of 0x\(Hex.digits(packet.address)) answered with a broken check byte")
                return bytes
            }
        case OmronPacket.Kind.write:
            omron.hostWrite(packet.address, packet.data)
            reply = OmronPacket(type: OmronPacket.Kind.writeAnswer, address: packet.address, data: packet.data)
        case OmronPacket.Kind.end:
            omron.transmissions += 1
            reply = OmronPacket(type: OmronPacket.Kind.endAnswer)
            if omron.transmissions == 1 { startTimeline(index) }
        default:
            log("\(name(index)) Omron packet of unknown type 0x\(Hex.digits(packet.type)) ignored")
            return nil
        }
        log("\(name(index)) Omron packet 0x\(Hex.digits(packet.type)) at 0x\(Hex.digits(packet.address)) answered")
        return reply.pieces(omron.model.stack)
    }
}
