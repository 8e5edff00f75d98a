import BlueZ
import GATTHealth

/// An Omron cuff's pairing key and unlock (docs/omron.md §2): programmed while the cuff shows "P", when cuffd
/// pairs it; given back on every later connection before the memory can be read.
extension CuffGateway {
    /// How long the cuff has to answer a write (omblepy waits 1 s per try, `omblepy.py`).
    static let omronAnswerTimeout: Duration = .seconds(2)

    /// Asks for key programming a few times (the bond may still be settling, as omblepy retries), then
    /// programs a new random key and remembers it.
    func programOmronKey(_ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) {
        var answer: OmronUnlock.Answer = .refused([])
        for attempt in 0 ..< 3 {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(300)) }
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

    /// Unlocks the cuff's memory with the key cuffd programmed.
    func unlockOmron(_ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) {
        guard let key = state.records[id.address]?.omronKey else { throw .noKey }
        let answer = try await unlockExchange(OmronUnlock.unlock(key), id, inbox)
        guard answer == .unlocked else { throw .unlockRefused(Self.bytes(of: answer)) }
    }

    /// Writes `value` to the unlock characteristic and waits for its notification.
    private func unlockExchange(_ value: [UInt8], _ id: DeviceID, _ inbox: OmronInbox) async throws(OmronDownloadError) -> OmronUnlock.Answer {
        await inbox.clear()
        do {
            try await bluez.writeValue(value, to: OmronService.unlock, of: id)
        } catch {
            throw .bluez(error)
        }
        while let message = await inbox.next(within: Self.omronAnswerTimeout) {
            if case .unlock(let bytes) = message { return OmronUnlock.Answer(decoding: bytes) }
        }
        return .refused([])
    }

    private static func bytes(of answer: OmronUnlock.Answer) -> [UInt8] {
        if case .refused(let bytes) = answer { bytes } else { [] }
    }
}
