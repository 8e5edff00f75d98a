import BlueZ
import CuffRecording

/// `cuffctl capture` (docs/capture.md): a device's GATT database and conversation recorded while the Gateway goes on
/// collecting from it as usual, as a cuff-sim scenario that plays the same conversation back.
extension CuffGateway {
    /// How long a capture without a duration lasts at most: it ends when the cuff's last link asked for does, or then.
    public static let captureLimit: Duration = .seconds(600)

    /// Records the device at `address`, following it across links (each drop and return is recorded), until `links`
    /// of its links have ended or for `duration`, whichever comes first (docs/capture.md, "When it ends"): without a
    /// duration at most ``captureLimit``; without either, until its first link ends. A link already up when the capture
    /// starts counts as the first. A device not connected is connected when bluetoothd holds a bond with it; otherwise
    /// the capture waits for a link someone else makes (a pairing, the cuff waking). Unless `keepIdentity`, what
    /// identifies the cuff or its owner is replaced (``CaptureRedaction``).
    public func capture(
        _ address: BluetoothAddress, links: Int? = nil, for duration: Duration? = nil, keepIdentity: Bool
    ) async throws(GatewayError) -> RecordedScenario {
        let capture = try await startCapture(address)
        let clock = clock
        let links = links ?? (duration == nil ? 1 : nil)
        await withTaskGroup(of: Void.self) { group in
            if let links { group.addTask { await capture.linksEnded(links) } }
            group.addTask { try? await clock.sleep(for: duration ?? Self.captureLimit) }
            await group.next()
            group.cancelAll()
            await capture.stop()
        }
        return try await finishCapture(capture, keepIdentity: keepIdentity)
    }

    /// Starts recording the device at `address`: its events from now on, its database walked on each link.
    public func startCapture(_ address: BluetoothAddress) async throws(GatewayError) -> CuffCapture {
        let adapter = try usableAdapter()
        guard state.captures[address] == nil else { throw .busy("a capture of \(address)") }
        let id = DeviceID(adapter: adapter.address, address: address)
        let capture = CuffCapture(id, bluetooth: bluetooth)
        state.captures[address] = capture
        await capture.start()
        await letCapturesWalk()
        if let device = await bluetooth.device(id), !device.connected, device.paired {
            let bluetooth = bluetooth
            Task { try? await bluetooth.connect(id) }
        }
        return capture
    }

    /// Tells each capture whether cuffd's own conversation with its device is under way — a pairing, the link's
    /// provisioning (identity, clock, records, an Omron download), its notify sessions starting —, called after each BlueZ event the Gateway
    /// handled and when a provisioning or a pairing ends. A capture walks the database only while it is not: its
    /// reads and notify sessions never delay the conversation it records (an Omron cuff's pairing key, a download
    /// the cuff ends the link after; docs/capture.md).
    func letCapturesWalk() async {
        for (address, capture) in state.captures {
            let provisioning = state.cuffs[address].map { $0.provisioning != nil && !$0.provisioned } ?? false
            // A cuff collected from, linked, whose notify sessions are not all up yet: those sessions are cuffd's own
            // conversation too (a capture records them; its own extra ones it does not).
            let linked = state.cuffs[address]?.device.connected == true
            let subscribing = linked ? !(await bluetooth.isNotifying(capture.id)) : false
            await capture.gatewayConverses(provisioning || subscribing || broker.isPairing(address))
        }
    }

    /// Ends `capture` and gives its recording, redacted unless `keepIdentity`. A device that never connected is
    /// `timedOut`, or `unknownCuff` when bluetoothd never knew it.
    public func finishCapture(_ capture: CuffCapture, keepIdentity: Bool) async throws(GatewayError) -> RecordedScenario {
        let id = capture.id
        defer { if state.captures[id.address] === capture { state.captures[id.address] = nil } }
        let recorded = await capture.finish()
        guard await capture.sawLink else {
            guard await bluetooth.device(id) != nil else { throw .unknownCuff(id.address) }
            throw .timedOut("waiting for \(id.address) to connect for the capture")
        }
        guard !keepIdentity else { return recorded }
        var generator = SystemRandomNumberGenerator()
        return CaptureRedaction(recorded, using: &generator).apply(recorded)
    }
}
