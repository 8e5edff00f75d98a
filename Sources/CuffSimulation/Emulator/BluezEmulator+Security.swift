import DBus

/// Link security: a cuff that pairs (`justWorks`, `passkey:N`) refuses its protected characteristics
/// (``GattLayout/protectedServices``) on an unpaired link with ATT "Insufficient Authentication", and
/// bluetoothd raises the link's security by itself and retries (`change_security()` in
/// `src/shared/att.c`, docs/reference/BLUEZ-DBUS.md §5, "Automatic security elevation").
extension BluezEmulator {
    /// Returns once the link may carry `characteristic`; throws `NotPermitted: Not paired` when security
    /// elevation fails (`create_gatt_dbus_error()` in `src/gatt-client.c`).
    func requireEncryption(_ index: Int, for characteristic: EmulatedCharacteristic) async throws(DBusError) {
        guard characteristic.requiresEncryption, !cuffs[index].paired else { return }
        log("\(name(index)) \(characteristic.id.label) refused on an unpaired link (insufficient authentication): raising security")
        guard await elevateSecurity(index) else { throw ATTError.insufficientAuthentication.dbusError }
    }

    /// Pairs the way the ATT layer does when a cuff asks for security: through the **default** agent only
    /// (`agent_get(NULL)` in `src/agent.c`; none counts as NoInputNoOutput, which Just Works needs no agent
    /// for and a passkey cuff fails with). A `Pair` or an elevation already under way decides for every
    /// request waiting on it.
    func elevateSecurity(_ index: Int) async -> Bool {
        if cuffs[index].pairing != nil {
            while cuffs[index].pairing != nil, !cuffs[index].paired {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return cuffs[index].paired
        }
        if cuffs[index].paired { return true }
        if let running = cuffs[index].elevation { return await running.value }
        let agent = defaultAgentOwner.flatMap { owner in agents[owner].map { (owner, $0) } }
        let requirement = cuffs[index].spec.pairing
        let device = cuffs[index].devicePath
        let elevation = Task { [self] in
            do {
                try await askAgent(agent, for: requirement, device: device)
                return true
            } catch {
                return false
            }
        }
        cuffs[index].elevation = elevation
        let paired = await elevation.value
        cuffs[index].elevation = nil
        guard paired else {
            log("\(name(index)) security elevation failed: \(agent == nil ? "no default agent" : "the default agent did not answer as the cuff needs")")
            return false
        }
        if !cuffs[index].paired {
            cuffs[index].paired = true
            cuffs[index].removalToken += 1
            log("\(name(index)) paired by security elevation")
            await update(device, Bluez.device, ["Paired": .boolean(true), "Bonded": .boolean(true)])
        }
        return true
    }
}
