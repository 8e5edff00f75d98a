import GATTHealth

/// A BPS 1.1 cuff's stored-record procedures (docs/reference/GATT-HEALTH.md §7–§8) on cuff-sim's bluetoothd: a write
/// to RACP 0x2A52 is checked by the cuff's ``RecordMemory`` and answered at once, then the cuff indicates the selected
/// records on 0x2B36, segment by segment, and ends with its response on 0x2A52. Reports leave the records in memory;
/// a delete removes them.
extension BluezEmulator {
    /// Between two indications bluetoothd confirms the first: about one connection interval.
    static let indicationInterval: Duration = .milliseconds(10)

    /// Checks a RACP write, then starts its procedure; an Abort stops the one under way.
    func requestRecordAccess(_ index: Int, _ value: [UInt8]) throws(ATTError) {
        guard !cuffs[index].spec.switchesOffOnRecordRequest else {
            switchOff(index, asked: value)
            return
        }
        let request = try cuffs[index].recordMemory.accept(
            value, controlPointIndicating: cuffs[index].isNotifying(.assigned(.recordAccessControlPoint)),
            recordsIndicating: cuffs[index].isNotifying(.assigned(.bloodPressureRecord)), busy: cuffs[index].recordProcedure != nil)
        // An Abort's response comes once the procedure it stops has ended: a segment that procedure was sending goes
        // out before the response, never after it.
        let stopped: Task<Void, Never>? = if case .abort = request.action { cuffs[index].recordProcedure } else { nil }
        stopped?.cancel()
        log("\(name(index)) 0x2A52 written: \(Hex.bytes(value))")
        if case .delete(let sequences) = request.action {
            log("\(name(index)) records deleted: \(sequences.sorted().map(String.init).joined(separator: ", "))")
        }
        cuffs[index].recordProcedure = spawn {
            await stopped?.value
            await self.carryOut(request, cuff: index)
        }
    }

    /// Indicates the records a report selected, then the response. Canceled by Abort or a lost link.
    private func carryOut(_ request: RecordAccessRequest, cuff index: Int) async {
        if case .report(let records) = request.action {
            for record in records {
                let segments = cuffs[index].recordMemory.segments(of: record)
                for (number, segment) in segments.enumerated() {
                    guard (try? await Task.sleep(for: Self.indicationInterval)) != nil else { return }
                    await send(index, .assigned(.bloodPressureRecord), segment,
                               kind: "indicated (record \(record.sequence), segment \(number + 1) of \(segments.count))")
                }
            }
        }
        guard (try? await Task.sleep(for: Self.indicationInterval)) != nil else { return }
        cuffs[index].recordProcedure = nil
        await send(index, .assigned(.recordAccessControlPoint), request.response, kind: "indicated (RACP response)")
    }
}

extension BluezEmulator {
    /// A cuff that switches itself off when asked for its history (``CuffSpec/switchesOffOnRecordRequest``): the write
    /// is taken, the link ends from the cuff's side, and the cuff is gone for the rest of the scenario.
    func switchOff(_ index: Int, asked value: [UInt8]) {
        log("\(name(index)) 0x2A52 written: \(Hex.bytes(value)); the cuff switches itself off")
        cuffs[index].switchedOff = true
        cuffs[index].advertising = false
        spawn { await self.dropLink(index, byHost: false) }
    }
}

