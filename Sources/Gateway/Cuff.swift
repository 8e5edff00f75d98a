import BlueZ
import FoundationEssentials
import GATTHealth

/// One cuff the Gateway collects from: an entry of ``CuffGateway/State/cuffs``.
///
/// Each field says who writes it. Every writer goes through `state.cuffs[address]?.field`, never through a
/// copy stored back after an await, so a cuff forgotten or removed while the writer was suspended stays gone
/// (docs/gateway.md, "Reentrancy").
struct Cuff {
    /// bluetoothd's view of it as the follow task last handled it: replaced by each `PropertiesChanged`, in order
    /// (never by a newer snapshot out of turn, which an older event still queued would undo); `connected` and
    /// `servicesResolved` cleared by `linkLost`.
    var device: Device
    /// The cuff's one session while it is collected (``CuffGateway/State/collect(_:)`` keeps it one).
    let session: CuffSession
    /// Its Device Information is known (read on this bond, or remembered from an earlier one). Set once, by
    /// `identify`, after the identity is in ``CuffGateway/State/records``.
    var identified: Bool
    /// Reading Device Information, syncing the clock, downloading records: at most one per link. Set by
    /// `startProvisioning` only when nil; canceled and cleared by `linkLost`, so a task that resumes canceled
    /// belongs to a link that is gone and changes nothing more.
    var provisioning: Task<Void, Never>?
    /// A pairing anew with a cuff that bonds anew on every link (`rebondIfAdvertising`): set only when nil, cleared by
    /// itself when `Pair` returned — after a failure only once ``GatewayConfiguration/rebondRetry``'s wait is over, so that
    /// the cuff's advertisements meanwhile start no pairing; canceled by `forget`.
    var rebonding: Task<Void, Never>?
    /// The pairings anew that failed in a row (the next wait's number); 0 once one succeeds.
    var rebondFailures = 0
    /// This link's provisioning ran to its end. Set by the provisioning task, cleared by `linkLost`.
    var provisioned = false
    /// The BPS 1.1 stored-record download of this link: set by `downloadRecords`, advanced by each segment and
    /// RACP response (each reads it afresh), cleared when it ends, fails or the link is lost.
    var download: RecordDownload?
    /// The QardioArm start/stop control point (docs/reference/GATT-HEALTH.md §12), when the cuff has one; set by
    /// provisioning.
    var vendorControl: String?
    /// The cuff's clock offset, set where its clock is read or written (Current Time, an Omron clock block).
    var clockOffset: Duration?
    /// When its newest stored reading arrived; set by `publish`.
    var lastReadingAt: Date?
    /// Where an Omron cuff's notifications wait for the download that asked (docs/omron.md §6).
    let omronInbox = OmronInbox()
    /// Joins a Microlife cuff's notifications into answer frames (docs/reference/GATT-HEALTH.md §13.12); the download
    /// resets it before each command.
    var microlifeAssembler = MicrolifeFrameAssembler()
    /// Where a Microlife cuff's answers wait for the download that asked.
    let microlifeAnswers = Mailbox<Result<[UInt8], MicrolifeError>>()
    /// Why the Omron pairing key could not be made to work while cuffd paired the cuff. Set by the Omron
    /// download only while ``PairingBroker/isPairing(_:)``; read by `pair` once the link's provisioning ended,
    /// which then forgets the cuff, so it never outlives the pairing.
    var omronRefusal: String?
    /// The Omron download of the pairing link unlocked the memory (docs/omron.md §6): only then is the pairing
    /// complete. Set only while ``PairingBroker/isPairing(_:)``; `pair` clears it before it bonds.
    var omronUnlocked = false
    /// The Omron download of the pairing link stopped after it had unlocked the memory: how many records it had
    /// handed over, and why. Set only while ``PairingBroker/isPairing(_:)``; `pair` clears it before it bonds and
    /// reports it once the link's provisioning ended (the bond stays).
    var omronDownloadStop: (records: Int, reason: String)?
    /// The newest Omron record downloaded had its low-battery bit set (docs/omron.md §5). Set and cleared by the
    /// Omron download, which says so in the journal once, when it turns on.
    var omronBatteryLow = false
    /// Battery Level (0x2A19) in percent as read at the last connection; nil when the cuff has none.
    var batteryLevel: UInt8?
}
