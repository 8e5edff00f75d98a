import BlueZ
import GATTHealth

/// An Omron cuff's pairing key and unlock (docs/omron.md §2): on the classic service a key programmed while the
/// cuff shows "P", when cuffd pairs it, and given back on every later connection before the memory can be read;
/// on the 0xFE4A service a token of cuffd's choosing that the cuff echoes, on every connection.
extension CuffGateway {
    /// How long the cuff has to answer a write (omblepy waits 1 s per try, `omblepy.py`).
    static let omronAnswerTimeout: Duration = .seconds(2)

    /// Asks for key programming a few times (the bond may still be settling, as omblepy retries), then
    /// programs a new random key and remembers it.
    func programOmronKey(_ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) {
        var answer: OmronUnlock.Answer = .refused([])
        for attempt in 0 ..< 3 {
            if attempt > 0 { try? await clock.sleep(for: .milliseconds(300)) }
            answer = try await unlockExchange(OmronUnlock.enterKeyProgramming, id, inbox)
            if answer == .keyProgrammingReady { break }
        }
        guard answer == .keyProgrammingReady else { throw .notInPairingMode }
        var generator = SystemRandomNumberGenerator()
        let key = (0 ..< OmronUnlock.keyLength).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let stored = try await unlockExchange(OmronUnlock.program(key), id, inbox)
        guard stored == .keyStored else { throw .keyRefused(Self.bytes(of: stored)) }
        var record = state.records[id.address] ?? CuffRecord(address: id.address)
        record.omronKey = key
        await remember(record)
    }

    /// Unlocks the cuff's memory: with the key cuffd programmed (classic service), or with a new random token
    /// the cuff must echo (0xFE4A; hass-omron `omron_driver.py` `_token_unlock`).
    func unlockOmron(_ stack: OmronStack, _ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) {
        guard stack == .classic else { return try await unlockWithToken(id, inbox) }
        guard let key = state.records[id.address]?.omronKey else { throw .noKey }
        let answer = try await unlockExchange(OmronUnlock.unlock(key), id, inbox)
        guard answer == .unlocked else { throw .unlockRefused(Self.bytes(of: answer)) }
    }

    /// The token unlock (docs/omron.md §2): written as a Write Command, as Omron's app does, and once more as a
    /// Write Request when no answer came (hass-omron `_token_unlock`: "fall back to write-with-response when
    /// stacks/proxies drop command writes"); the answer must be `91 00` and the same 4 bytes.
    private func unlockWithToken(_ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) {
        var generator = SystemRandomNumberGenerator()
        let token = (0 ..< OmronUnlock.tokenLength).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        var answer: OmronUnlock.Answer = .refused([])
        for type in [BluezClient.WriteType.command, .request] {
            answer = try await unlockExchange(OmronUnlock.tokenUnlock(token), id, inbox, type: type)
            if answer != .refused([]) { break }
        }
        guard answer == .tokenEchoed(token) else { throw .tokenRefused(sent: token, answer: Self.bytes(of: answer)) }
    }

    /// Writes `value` to the unlock characteristic and waits for its notification.
    private func unlockExchange(
        _ value: [UInt8], _ id: DeviceID, _ inbox: OmronInbox, type: BluezClient.WriteType = .request
    ) async throws(OmronDownloadError) -> OmronUnlock.Answer {
        await inbox.clear()
        do {
            try await bluetooth.writeValue(value, to: OmronService.unlock, of: id, type: type)
        } catch {
            throw .bluez(error)
        }
        while let message = await inbox.next(within: Self.omronAnswerTimeout, on: clock) {
            if case .unlock(let bytes) = message { return OmronUnlock.Answer(decoding: bytes) }
        }
        return .refused([])
    }

    /// The bytes of an answer that is not the one hoped for, for the message; none when nothing came.
    private static func bytes(of answer: OmronUnlock.Answer) -> [UInt8] {
        switch answer {
        case .refused(let bytes): bytes
        case .tokenEchoed(let echo): [0x91, 0x00] + echo
        default: []
        }
    }
}
