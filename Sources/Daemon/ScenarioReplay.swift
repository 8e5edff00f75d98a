import CuffSimulation
import FoundationEssentials
import Gateway
import GATTHealth
import Logging

/// Plays a `cuff-sim` scenario's cuffs straight into Gateway sessions, without Bluetooth or D-Bus: the
/// link events a cuff would cause (connect, enable indications → stored records, its timeline) in order,
/// each reading committed through the given store and logged. It shows the Gateway → store → journal half
/// of cuffd on any machine; `cuff-sim` plays the same scenarios over a bus.
public struct ScenarioReplay {
    public let scenario: Scenario
    public let users: UserDirectory

    public init(scenario: Scenario, users: UserDirectory = UserDirectory()) {
        self.scenario = scenario
        self.users = users
    }

    /// Replays every cuff; returns the events each session produced, in order.
    public func run(into store: any ReadingStore, logger: Logger, now: @Sendable () -> Date = { Date() }) async -> [SessionEvent] {
        var all: [SessionEvent] = []
        for cuff in scenario.cuffs {
            let session = CuffSession(device: Self.identity(of: cuff), users: users, store: store)
            var events = await connect(session, cuff, now)
            for step in cuff.timeline {
                switch step.action {
                case let .notify(characteristic, value), let .indicate(characteristic, value):
                    events += await session.handle(.value(characteristic, value.bytes, receivedAt: now()))
                case .disconnect:
                    events += await session.handle(.disconnected)
                case .advertise, .restartBluez:
                    // A cuff that wakes, or a bluetoothd that came back: the link is set up again and the
                    // cuff re-sends its history.
                    if await session.state != .disconnected { events += await session.handle(.disconnected) }
                    events += await connect(session, cuff, now)
                }
            }
            for event in events { Self.log(event, logger) }
            all += events
        }
        return all
    }

    private func connect(_ session: CuffSession, _ cuff: CuffSpec, _ now: @Sendable () -> Date) async -> [SessionEvent] {
        var events: [SessionEvent] = []
        for event: LinkEvent in [.connecting, .connected, .servicesResolved, .subscribed] { events += await session.handle(event) }
        for record in cuff.storedRecords {
            events += await session.handle(.value(.bloodPressureMeasurement, record.bytes, receivedAt: now()))
        }
        return events
    }

    static func identity(of cuff: CuffSpec) -> DeviceIdentity {
        let information = cuff.deviceInformation
        return DeviceIdentity(
            address: cuff.address, name: cuff.name, manufacturer: information?.manufacturer, model: information?.model,
            serial: information?.serial, firmware: information?.firmware)
    }

    static func log(_ event: SessionEvent, _ logger: Logger) {
        switch event {
        case let .readingStored(reading, outcome): ReadingLog.stored(reading, outcome: outcome, to: logger)
        case let .measurementFailed(failure): ReadingLog.failed(failure, to: logger)
        case let .malformedValue(characteristic, error, _):
            logger.warning("Skipped a malformed 0x\(characteristic.shortUUID) value: \(error)")
        case let .storeFailed(_, reason): logger.error("The store refused a reading (kept pending): \(reason)")
        case let .stateChanged(state): logger.debug("Session: \(state)")
        }
    }
}
