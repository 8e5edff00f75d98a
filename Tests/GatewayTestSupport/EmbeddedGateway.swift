import BlueZ
import FoundationEssentials
import Gateway

/// A ``CuffGateway`` in-process: on an ``EmbeddedCentral``, in virtual time (``TestClock``), storing into memory,
/// with every event it emits recorded. No process, no bus, no sleep: the test drives each step and waits for
/// what it expects to follow.
public struct EmbeddedGateway: Sendable {
    public let central: EmbeddedCentral
    public let clock: TestClock
    public let gateway: CuffGateway
    public let store: InMemoryReadingStore
    public let registry: any CuffRegistry
    public let events: EventRecorder<GatewayEvent>

    /// The wall-clock time the Gateway and the central read (a reading's `receivedAt`, a clock offset): 2026-12-01 UTC,
    /// after every shipped scenario's readings but the deliberately future one, so that their device times are believed
    /// (``DeviceTimeTrust``) as they are when the scenarios run over cuff-sim.
    public static let now = Date(timeIntervalSince1970: 1_796_083_200)

    /// Starts a Gateway on a central that knows `peripherals`.
    public static func start(
        _ peripherals: [EmbeddedPeripheral], configuration: GatewayConfiguration = GatewayConfiguration(),
        store: InMemoryReadingStore = InMemoryReadingStore(), registry: any CuffRegistry = InMemoryCuffRegistry(), spool: any ReadingSpool = NoSpool()
    ) async throws -> EmbeddedGateway {
        let central = EmbeddedCentral(now: { Self.now })
        for peripheral in peripherals { await central.add(peripheral) }
        let clock = TestClock()
        let gateway = CuffGateway(
            bluetooth: central, store: store, registry: registry, configuration: configuration, spool: spool, now: { Self.now }, clock: clock)
        let events = EventRecorder(await gateway.events())
        try await gateway.start()
        return EmbeddedGateway(central: central, clock: clock, gateway: gateway, store: store, registry: registry, events: events)
    }

    /// Returns the next Gateway event that `predicate` accepts, as soon as it is emitted.
    @discardableResult
    public func next(where predicate: (GatewayEvent) -> Bool) async throws -> GatewayEvent {
        try await events.next(where: predicate)
    }

    /// Returns once the Gateway has handled everything the central sent it.
    public func settled() async {
        await central.settled()
    }

    public func stop() async {
        await gateway.stop()
    }
}
