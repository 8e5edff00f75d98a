import GATTHealth

/// QardioArm's vendor control point (docs/reference/GATT-HEALTH.md §12, reverse-engineered): `F1 01` starts a
/// measurement — phase `F2 01` (inflating), the cuff's `onStart` script, then `F2 04` (completed) —
/// and `F1 02` cancels it with `F2 05` (aborted). Phases go out as notifications on the control point.
extension BluezEmulator {
    func commandQardioArm(_ index: Int, _ value: [UInt8]) async throws(ATTError) {
        let command: QardioArmControlPoint.Command
        do {
            command = try QardioArmControlPoint.Command(decoding: value)
        } catch {
            throw .valueNotAllowed
        }
        log("\(name(index)) QardioArm control written: \(Hex.bytes(value)) (\(command))")
        switch command {
        case .start:
            // A start while measuring changes nothing: the pump is already running.
            guard cuffs[index].vendorMeasurement == nil else { return }
            cuffs[index].vendorMeasurement = spawn { await self.measure(cuff: index) }
        case .cancel:
            guard let measurement = cuffs[index].vendorMeasurement else { return }
            measurement.cancel()
            cuffs[index].vendorMeasurement = nil
            await sendPhase(.aborted, cuff: index)
        }
    }

    private func measure(cuff index: Int) async {
        await sendPhase(.inflating, cuff: index)
        guard await play(cuffs[index].spec.onStart, cuff: index) else { return }
        cuffs[index].vendorMeasurement = nil
        await sendPhase(.completed, cuff: index)
    }

    private func sendPhase(_ phase: QardioArmControlPoint.Phase, cuff index: Int) async {
        await send(index, .qardioArmControl, phase.encoded(), kind: "notified (\(phase))")
    }
}
