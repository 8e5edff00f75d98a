import BlueZ
import DBus
import GATTHealth

/// A recorded cuff (docs/cuff-sim.md, "Recorded cuffs") on cuff-sim's bluetoothd: each link plays the next recorded
/// link's steps in real time, through the cuff's ``RecordedConversation``; reads, writes and notify sessions are
/// answered from it; after a link it advertises again when the recording says it came back.
extension BluezEmulator {
    /// The link came up: the next recorded link plays from now.
    func recordedLinkUp(_ index: Int) {
        guard cuffs[index].recording != nil else { return }
        guard cuffs[index].recording!.linkUp() else {
            log("\(name(index)) connected again after its last recorded link: it says nothing")
            return
        }
        let (hostActions, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let start = ContinuousClock.now
        let player = spawn { await self.playRecordedLink(index, from: start, hostActions: hostActions) }
        cuffs[index].recordedLink = (start, player, continuation)
    }

    /// Plays the link's steps until it ends, the recording's link is over, or the link goes (the task is canceled).
    private func playRecordedLink(_ index: Int, from start: ContinuousClock.Instant, hostActions: AsyncStream<Void>) async {
        var hostActed = hostActions.makeAsyncIterator()
        while !Task.isCancelled, cuffs[index].recording != nil {
            let moment = Self.seconds(ContinuousClock.now - start)
            switch cuffs[index].recording!.next(at: moment) {
            case .send(let sent):
                await send(index, recordedID(index, sent.uuid), sent.bytes, kind: sent.indication ? "indicated (recorded)" : "notified (recorded)")
            case .wait(let due):
                guard (try? await Task.sleep(until: start + .milliseconds(Int((due * 1000).rounded())), clock: .continuous)) != nil else { return }
            case .waitForHost:
                guard await hostActed.next() != nil else { return }
            case .disconnect:
                await dropLink(index, byHost: false)
                return
            case .finished:
                return
            }
        }
    }

    /// The link went down and the recording says the cuff came back `after` seconds later: it advertises then — with
    /// `manualStart`, once a driver presses START on it instead (docs/cuff-sim.md, "Recorded cuffs"). A recording holds
    /// no `pressStart`: the person who woke the original cuff for its next link is the driver here, who presses once
    /// `cuffctl start` is armed rather than racing the recorded gap.
    func advertiseAgain(_ index: Int, after seconds: Double?) {
        guard let seconds else { return }
        let generation = generation
        spawn {
            if self.manualStart {
                await self.waitForStart(cuff: index)
            } else {
                guard (try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded())))) != nil else { return }
            }
            await self.recordedCuffAdvertises(index, generation: generation)
        }
    }

    private func recordedCuffAdvertises(_ index: Int, generation: Int) async {
        guard generation == self.generation, !cuffs[index].connected else { return }
        cuffs[index].advertising = true
        log("\(name(index)) advertising (its next recorded link)")
        await cuffAdvertised(index)
    }

    /// What a read of `characteristic` returns: the recording's value now, or the refusal it recorded.
    func recordedRead(_ index: Int, _ characteristic: EmulatedCharacteristic) throws(DBusError) -> [UInt8] {
        do {
            return try cuffs[index].recording!.read(characteristic.id.uuid)
        } catch {
            throw DBusError(DBusError.Name(rawValue: error.name), error.message)
        }
    }

    /// The host's write, taken for the recorded write it stands for (or taken silently); a recorded refusal is
    /// answered to a Write Request, and a Write Command just goes unanswered.
    func recordedWrite(_ index: Int, _ characteristic: EmulatedCharacteristic, _ value: [UInt8], procedure: WriteProcedure) throws(DBusError) {
        let label = "\(name(index)) \(characteristic.id.label)"
        guard characteristic.flags.contains(procedure == .request ? "write" : "write-without-response") else {
            guard procedure == .request else { return log("\(label) Write Command ignored: \(Hex.bytes(value))") }
            throw ATTError.writeNotPermitted.dbusError
        }
        let moment = cuffs[index].recordedLink.map { Self.seconds(ContinuousClock.now - $0.start) } ?? 0
        defer { cuffs[index].recordedLink?.hostActions.yield() }
        do {
            try cuffs[index].recording!.write(value, to: characteristic.id.uuid, at: moment)
            log("\(label) written: \(Hex.bytes(value))")
        } catch {
            log("\(label) write of \(Hex.bytes(value)) refused as recorded: \(error.name): \(error.message)")
            guard procedure == .request else { return }
            throw DBusError(DBusError.Name(rawValue: error.name), error.message)
        }
    }

    /// A notify session started on this link: what the recording held for it goes out.
    func recordedSubscription(_ index: Int, _ characteristic: CharacteristicID) async {
        guard let held = cuffs[index].recording?.subscribed(characteristic.uuid) else { return }
        cuffs[index].recordedLink?.hostActions.yield()
        for sent in held {
            await send(index, characteristic, sent.bytes, kind: sent.indication ? "indicated (recorded, held for its session)" : "notified (recorded, held for its session)")
        }
    }

    /// The characteristic a recorded value names: the first with its UUID.
    private func recordedID(_ index: Int, _ uuid: String) -> CharacteristicID {
        cuffs[index].layout.characteristics.first { $0.id.uuid == uuid }?.id ?? .recorded(0, uuid: uuid)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
