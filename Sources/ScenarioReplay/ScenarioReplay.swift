import CuffSimulation
import Daemon
import FoundationEssentials
import Gateway
import GATTHealth
import Logging
import Synchronization

/// Plays a `cuff-sim` scenario's cuffs straight into Gateway sessions, without Bluetooth or D-Bus: the
/// link events a cuff would cause (connect, enable indications → stored records, RACP download → BPS 1.1
/// records, an Omron or Microlife memory, a vendor start → `onStart`, its timeline) in order, each reading committed through the given
/// store and logged. It shows the Gateway → store → journal half of cuffd on any machine; `cuff-sim` plays
/// the same scenarios over a bus.
public struct ScenarioReplay {
    public let scenario: Scenario
    public let users: UserDirectory

    public init(scenario: Scenario, users: UserDirectory = UserDirectory()) {
        self.scenario = scenario
        self.users = users
    }

    /// Replays every cuff; returns the events each session produced, in order.
    public func run(into store: any ReadingStore, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) async -> [SessionEvent] {
        var all: [SessionEvent] = []
        for cuff in scenario.cuffs {
            let later = Mutex<[SessionEvent]>([])
            let session = CuffSession(
                device: Self.identity(of: cuff), users: users, store: store, laterEvents: { events in later.withLock { $0 += events } })
            var replay = CuffReplay(cuff: cuff, session: session, now: now)
            var events = await replay.connect()
            // A vendor cuff measures once, as if its start command was sent on the first link.
            events += await replay.play(cuff.onStart)
            events += await replay.play(cuff.timeline)
            // The link ends with the replay: heart-rate values still waiting for their batch go in now.
            if await session.state != .disconnected { events += await session.handle(.disconnected) }
            events = later.withLock { $0 } + events
            let log = GatewayLog(detail: .readings, logger: logger)
            for event in events { log.log(.session(cuff.address, event)) }
            all += events
        }
        return all
    }

    static func identity(of cuff: CuffSpec) -> DeviceIdentity {
        let information = cuff.deviceInformation
        return DeviceIdentity(
            address: cuff.address, name: cuff.name, manufacturer: information?.manufacturer, model: information?.model,
            serial: information?.serial, firmware: information?.firmware)
    }

}

/// One cuff's link events as a replay feeds them to its session.
private struct CuffReplay {
    let cuff: CuffSpec
    let session: CuffSession
    let now: @Sendable () -> Date
    /// The newest BPS 1.1 record delivered, as the Gateway remembers it to ask for newer ones only.
    var lastRecord: UInt16?
    /// An Omron cuff's unread slots per user, as its counters name them (docs/omron.md §4): delivered and
    /// emptied on each connection, filled by `measure` steps.
    var omronUnread: [[OmronSlotSpec]]

    init(cuff: CuffSpec, session: CuffSession, now: @escaping @Sendable () -> Date) {
        self.cuff = cuff
        self.session = session
        self.now = now
        omronUnread = cuff.omron.map { omron in omron.users.map { Array($0.records.dropFirst($0.read)) } } ?? []
    }

    /// The link comes up: the cuff re-sends its history, and a BPS 1.1 cuff's records newer than the last
    /// delivered arrive with their sequence numbers, as a RACP download "≥ last + 1" brings them.
    mutating func connect() async -> [SessionEvent] {
        var events: [SessionEvent] = []
        for event: LinkEvent in [.connecting, .connected, .servicesResolved, .subscribed] { events += await session.handle(event) }
        // An Omron cuff's readings come from its memory only, as the Gateway takes them (docs/omron.md §6).
        for record in cuff.storedRecords where cuff.vendor != .omron {
            events += await session.handle(.value(.bloodPressureMeasurement, record.bytes, receivedAt: now()))
        }
        // A model cuffd never asks for its records (docs/compatibility.md) keeps them.
        let asked = CuffCatalog.asksForRecords(CuffAdvertisement(name: cuff.name))
        let newer = (asked ? cuff.records ?? [] : []).filter { record in lastRecord.map { record.sequence > $0 } ?? true }
        for record in newer.sorted(by: { $0.sequence < $1.sequence }) {
            events += await session.handle(.storedRecord(
                sequenceNumber: record.sequence, .enhancedBloodPressureMeasurement, record.value.bytes, receivedAt: now()))
            lastRecord = record.sequence
        }
        if let model = cuff.omron?.model {
            for (user, slots) in omronUnread.enumerated() {
                for slot in slots {
                    let bytes = slot.bytes(model.layout)
                    guard let record = try? OmronRecord(decoding: bytes, model: model) else { continue }
                    events += await session.handle(.omronRecord(user: UInt8(user + 1), record, slot: bytes, receivedAt: now()))
                }
            }
            omronUnread = omronUnread.map { _ in [] }
        }
        // A Microlife cuff sends its whole memory on every link, every record under the selected user (§13.12).
        for record in cuff.microlife?.readings ?? [] {
            events += await session.handle(.microlifeRecord(user: cuff.microlife!.selectedUser, record, receivedAt: now()))
        }
        return events
    }

    /// A script's steps in order, without their delays; a value counts as received at the replay's start plus
    /// its step's time, so a heart-rate sensor's values keep their spacing.
    mutating func play(_ steps: [TimelineStep]) async -> [SessionEvent] {
        var events: [SessionEvent] = []
        let start = now()
        for step in steps {
            switch step.action {
            case let .notify(characteristic, value), let .indicate(characteristic, value):
                events += await session.handle(.value(characteristic, value.bytes, receivedAt: start.addingTimeInterval(step.after)))
            case .disconnect:
                events += await session.handle(.disconnected)
            case let .measure(user, slot):
                while omronUnread.count < user { omronUnread.append([]) }
                omronUnread[user - 1].append(slot)
            case .pressStart:
                // START pressed: what the cuff does then are the steps after it.
                continue
            case .advertise, .restartBluez:
                // A cuff that wakes, or a bluetoothd that came back: the link is set up again and the
                // cuff re-sends its history.
                if await session.state != .disconnected { events += await session.handle(.disconnected) }
                events += await connect()
            }
        }
        return events
    }
}
