import BlueZ
import DBus
import Foundation
import Gateway
import HealthStore
import Logging

/// cuffd's control API on D-Bus (docs/dbus-api.md): `org.cuffd.Gateway1` at `/org/cuffd/Gateway1` with an
/// ObjectManager, and one `org.cuffd.Cuff1` object per cuff beneath it. Every method checks the caller's
/// credentials (``AccessPolicy``); readings and statistics go through HealthStore's per-client
/// authorization, off the main loop (``StoreReaders``). Signals carry nothing of a reading (its sync identifier embeds the cuff's bytes); a client
/// reads what a signal announces with its own rights.
public final class ControlAPI: Sendable {
    public static let busName = "org.cuffd.Gateway1"
    public static let path: DBusObjectPath = "/org/cuffd/Gateway1"
    static let interfaceName = "org.cuffd.Gateway1"
    static let cuffInterfaceName = "org.cuffd.Cuff1"

    let connection: DBusConnection
    let gateway: CuffGateway
    let store: any HealthStoring
    let policy: AccessPolicy
    let version: String
    let signals: GatewaySignals
    /// Where store reads run (``StoreReaders``).
    let readers: StoreReaders
    /// When they start (``ReadAdmission``).
    let admission: ReadAdmission
    /// The people the configuration names, whom a reading may be entered or moved for.
    let people: Set<String>
    /// The next page of a change feed, read for a client catching up (``FeedPagesAhead``).
    let pagesAhead = FeedPagesAhead()

    /// `logger` receives the signals that could not be sent (``GatewaySignals``); `readers` runs the store reads,
    /// `admission` paces them; `people` are the configuration's.
    public init(
        connection: DBusConnection, gateway: CuffGateway, store: any HealthStoring, policy: AccessPolicy, version: String, logger: Logger,
        readers: StoreReaders = StoreReaders(), admission: ReadAdmission = ReadAdmission(), people: Set<String> = []
    ) {
        self.connection = connection
        self.readers = readers
        self.admission = admission
        self.people = people
        signals = GatewaySignals(emitter: connection, logger: logger)
        self.gateway = gateway
        self.store = store
        self.policy = policy
        self.version = version
    }

    /// Exports the API and the cuffs the Gateway knows now.
    public func export() async {
        await connection.addObjectManager(at: Self.path)
        await connection.export([gatewayInterface(rememberedCuffs: await rememberedCuffs())], at: Self.path)
        for status in await gateway.cuffStatuses { await publish(status) }
    }

    /// Follows the Gateway: cuff objects come, change and go; stored readings and passkey requests become
    /// signals. Runs until the stream ends.
    public func follow(_ events: AsyncStream<GatewayEvent>) async {
        for await event in events {
            switch event {
            case .cuffChanged(let status):
                await publish(status)
                await refreshRememberedCuffs()
            case .cuffRemoved(let address):
                await connection.unexport(Self.cuffPath(address))
                await refreshRememberedCuffs()
            case let .session(address, .stateChanged(state)):
                try? await connection.setProperties(CuffObject.stateProperties(state), interface: Self.cuffInterfaceName, at: Self.cuffPath(address))
            case let .session(address, .readingStored(reading, .stored)):
                // A cuff's first reading comes once it is identified, and so remembered: the set says so before
                // the signal does.
                await refreshRememberedCuffs()
                try? await connection.setProperties(["LastReading": .double(reading.receivedAt.timeIntervalSince1970)],
                                                    interface: Self.cuffInterfaceName, at: Self.cuffPath(address))
                // Only the cuff: a sync identifier embeds the reading's bytes, and signals reach readers without
                // a read grant too.
                signals.readingStored(address)
            case let .session(address, .heartRatesStored):
                // A batch, at most one a second per sensor; like ReadingStored, it names only the device.
                signals.heartRatesStored(address)
            case .passkeyRequested(let address):
                signals.passkeyRequested(address)
            default:
                break
            }
        }
    }

    /// Sets the `Status` property (the same line goes to systemd as `STATUS=`).
    public func setStatus(_ line: String) async {
        try? await connection.setProperties(["Status": .string(line)], interface: Self.interfaceName, at: Self.path)
    }

    /// `RememberedCuffs` as the Gateway's registry has it now, announced with `PropertiesChanged` only when it changed
    /// (a cuff identified on its first bond, or forgotten).
    private func refreshRememberedCuffs() async {
        let addresses = await rememberedCuffs()
        guard await connection.propertyValue("RememberedCuffs", interface: Self.interfaceName, at: Self.path) != addresses else { return }
        try? await connection.setProperties(["RememberedCuffs": addresses], interface: Self.interfaceName, at: Self.path)
    }

    private func rememberedCuffs() async -> DBusValue {
        await gateway.rememberedCuffs.map(\.description).dbusValue
    }

    private func publish(_ status: CuffStatus) async {
        let path = Self.cuffPath(status.address)
        if await connection.propertyValue("Address", interface: Self.cuffInterfaceName, at: path) == nil {
            await connection.export([CuffObject.interface(status)], at: path)
        } else {
            try? await connection.setProperties(CuffObject.properties(status), interface: Self.cuffInterfaceName, at: path)
        }
    }

    /// `/org/cuffd/Gateway1/cuff_C4F31253F2C9`.
    static func cuffPath(_ address: BluetoothAddress) -> DBusObjectPath {
        try! path.appending("cuff_" + address.description.filter { $0 != ":" })
    }
}
