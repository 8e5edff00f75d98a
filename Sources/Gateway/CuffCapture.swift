import BlueZ
import CuffRecording

/// One capture of one device (docs/capture.md): from ``start()`` it is handed each of the central's events before the
/// Gateway handles it — so whatever the Gateway made of a value, the capture has recorded — and keeps what concerns
/// the device: links coming up and going down, every value it sends, every write made to it; on each link whose
/// services are resolved it walks what of its GATT database is not walked yet: every characteristic that notifies or
/// indicates subscribed (beside the Gateway's own sessions, which go on storing readings as usual), every readable
/// value and descriptor read. ``finish()`` ends it and gives the recording.
public actor CuffCapture {
    let id: DeviceID
    private let bluetooth: any BluetoothCentral
    private var recorder = CaptureRecorder()
    private var walk: Task<Void, Never>?
    /// What cut the last walk short — the link going, the capture ending — until a walk reads everything: then what
    /// it could not read is said in the recording.
    private var walkCutShort: String?
    /// The link is up and its services resolved: what bluetoothd exports may be walked.
    private var resolved = false
    /// cuffd's own conversation with the device is under way (a pairing, the link's provisioning): the walk waits
    /// for its end. Told by the Gateway after each event it handled (``CuffGateway/letCapturesWalk()``).
    private var gatewayConversing = true
    /// A walk started on this link: notify sessions starting from then on are the capture's own.
    private var walkedThisLink = false
    /// The notify sessions cuffd started on this link before a walk did: the Gateway's, recorded.
    private var gatewaySessions: Set<String> = []
    /// The characteristics whose notify sessions are the capture's own (asked for by a walk, the Gateway having
    /// none), on every later link too: never recorded, as a replay's host starts none of them.
    private var ownSessions: Set<String> = []
    private var name: String?
    private var paired = false
    private var finished = false
    /// Callers of ``linksEnded(_:)``, each resumed once as many links as it waits for have ended.
    private var linkEndWaiters: [(links: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ id: DeviceID, bluetooth: any BluetoothCentral) {
        self.id = id
        self.bluetooth = bluetooth
    }

    /// Records the device from now on; a link already up is recorded from now, and walked at once when its services
    /// are resolved.
    func start() async {
        if let device = await bluetooth.device(id) { await seen(device, at: .now) }
    }

    /// Whether a link came up while the capture ran.
    var sawLink: Bool { recorder.linkCount > 0 }

    /// Returns once the walk under way, if any, has read what it could: a test's point to finish a capture whose
    /// database must be whole.
    public func walkEnded() async {
        await walk?.value
    }

    /// How many links recorded have ended: a link already up when the capture started is the first.
    var endedLinks: Int { recorder.linkCount - (recorder.hasLink ? 1 : 0) }

    /// Returns once `count` links recorded have ended (or the capture finished): the end `cuffctl capture --links`
    /// names (docs/capture.md, "When it ends").
    func linksEnded(_ count: Int) async {
        guard endedLinks < count, !finished else { return }
        await withCheckedContinuation { linkEndWaiters.append((count, $0)) }
    }

    /// Ends the capture: no more events recorded, the capture's own notify sessions ended, ``linksEnded(_:)`` returns.
    func stop() async {
        guard !finished else { return }
        finished = true
        if walk != nil { walkCutShort = "the capture ended" }
        walk?.cancel()
        resumeLinkEndWaiters()
        await bluetooth.stopCaptureNotifying(id)
        if let device = await bluetooth.device(id) { note(device) }
    }

    /// Ends the capture if it runs; the recording, with what it could not record said in `notes`.
    func finish() async -> RecordedScenario {
        await stop()
        return RecordedScenario(
            adapter: id.adapter.description, address: id.address.description, name: name ?? "", paired: paired,
            cuff: recorder.recorded(notes: notes))
    }

    /// What the recording lacks, in words.
    private var notes: [String] {
        var notes: [String] = []
        if recorder.linkCount > 0, recorder.characteristics.isEmpty {
            notes.append("the cuff dropped the link before bluetoothd resolved its services: no GATT database was recorded")
        }
        let values = recorder.unreadCharacteristics.count, descriptors = recorder.unreadDescriptors.count
        if let walkCutShort, values + descriptors > 0 {
            notes.append("\(walkCutShort) while cuffd walked the GATT database: \(values) readable value(s) and \(descriptors) descriptor(s) were not read")
        }
        return notes
    }

    // MARK: - Recording the device

    /// One of the central's events, in the order the Gateway handles them.
    func handle(_ event: BluezEvent) async {
        guard !finished else { return }
        let now = ContinuousClock.now
        switch event {
        case let .deviceChanged(device, _) where device.id == id:
            await seen(device, at: now)
        case .deviceRemoved(id), .availabilityChanged(false):
            linkDown(at: now)
        case let .value(device, uuid, bytes, _) where device == id:
            recorder.value(uuid, bytes, at: now)
        case let .write(device, write) where device == id:
            recorder.write(write, at: now)
        case let .notifying(device, uuid) where device == id:
            guard !walkedThisLink, !ownSessions.contains(uuid) else { break }
            gatewaySessions.insert(uuid)
            recorder.subscribed(uuid, at: now)
        case .servicesChanged(id):
            await exported()
            walkIfResolved()
        default:
            break
        }
    }

    /// The device as the mirror shows it at `moment`: a link that came up or went down, services resolved.
    private func seen(_ device: Device, at moment: ContinuousClock.Instant) async {
        note(device)
        resolved = device.connected && device.servicesResolved
        guard device.connected else { return linkDown(at: moment) }
        recorder.linkUp(at: moment)
        guard device.servicesResolved else { return }
        await exported()
        walkIfResolved()
    }

    /// Whether cuffd's own conversation with the device is under way; once it is not, the walk may start.
    func gatewayConverses(_ conversing: Bool) {
        gatewayConversing = conversing
        walkIfResolved()
    }

    /// Starts walking the database when the link's services are resolved, cuffd's own conversation with the device
    /// is over and no walk runs: on the resolution, and whenever bluetoothd exports more (a first resolution
    /// announces `ServicesResolved` before the objects, docs/reference/BLUEZ-DBUS.md §6).
    private func walkIfResolved() {
        guard resolved, !gatewayConversing, !finished, recorder.hasLink, walk == nil else { return }
        walkedThisLink = true
        ownSessions.formUnion(recorder.notifyingUUIDs.subtracting(gatewaySessions))
        walk = Task { await self.walkDatabase() }
    }

    private func note(_ device: Device) {
        name = device.name ?? name
        paired = paired || device.paired
        if !device.uuids.isEmpty { recorder.uuids = device.uuids }
    }

    private func linkDown(at moment: ContinuousClock.Instant) {
        resolved = false
        walkedThisLink = false
        gatewaySessions = []
        guard recorder.hasLink else { return }
        recorder.linkDown(at: moment)
        if walk != nil { walkCutShort = "the link dropped" }
        walk?.cancel()
        walk = nil
        resumeLinkEndWaiters()
    }

    /// Resumes the callers of ``linksEnded(_:)`` whose count of links has ended — all of them once the capture finished.
    private func resumeLinkEndWaiters() {
        let ended = finished ? Int.max : endedLinks
        for waiter in linkEndWaiters where waiter.links <= ended { waiter.continuation.resume() }
        linkEndWaiters.removeAll { $0.links <= ended }
    }

    /// Adds what bluetoothd exports of the device now to the database.
    private func exported() async {
        recorder.exported(await bluetooth.characteristics(of: id), await bluetooth.descriptors(of: id))
    }

    // MARK: - The walk

    /// Subscribes to every characteristic that notifies or indicates, then reads every readable value and
    /// descriptor not read yet; stops where the link goes (the next link's walk reads the rest).
    private func walkDatabase() async {
        repeat {
            guard await walkOnce() else { return }
        } while !(recorder.unreadCharacteristics.isEmpty && recorder.unreadDescriptors.isEmpty)
        walk = nil
        walkCutShort = nil
    }

    /// One pass over what is known now; false when the link went or the capture ended meanwhile. What bluetoothd
    /// exports during the pass is read by the next. No read is begun once the walk is canceled: the link's end that
    /// canceled it also cleared the reads under way (``CaptureRecorder/linkDown(at:)``), and one marked after it would
    /// make the next link's values on that characteristic look like its answer (a walk that starts as the cuff ends
    /// the link, A&D's after its pairing; docs/capture.md).
    private func walkOnce() async -> Bool {
        await bluetooth.keepCaptureNotifying(id, uuids: recorder.notifyingUUIDs)
        for uuid in recorder.unreadCharacteristics {
            guard !Task.isCancelled else { return false }
            recorder.reading(uuid)
            let result: Result<[UInt8], BluezError>
            do {
                result = .success(try await bluetooth.readValue(uuid, of: id))
            } catch {
                result = .failure(error)
            }
            guard await stillLinked(after: result) else { return false }
            recorder.read(uuid, result)
        }
        for descriptor in recorder.unreadDescriptors {
            let result: Result<[UInt8], BluezError>
            do {
                result = .success(try await bluetooth.readDescriptor(descriptor))
            } catch {
                result = .failure(error)
            }
            guard await stillLinked(after: result) else { return false }
            recorder.read(descriptor, result)
        }
        return !Task.isCancelled
    }

    /// Whether a read's outcome counts: not when the capture ended meanwhile, nor a refusal that came because the
    /// link went (that read is not done: the next link's walk tries again).
    private func stillLinked(after result: Result<[UInt8], BluezError>) async -> Bool {
        guard !Task.isCancelled else { return false }
        guard case .failure = result else { return true }
        return await bluetooth.device(id)?.connected == true
    }
}
