import BlueZ

/// Why a Gateway request failed, each with a message a person can act on.
public enum GatewayError: Error, Sendable, CustomStringConvertible {
    /// bluetoothd is not running, or no usable adapter.
    case bluetoothUnavailable(String)
    /// No cuff with that address is known or in range.
    case unknownCuff(BluetoothAddress)
    /// No cuff is known at all (start without an address).
    case noCuffs
    /// The request did not complete in time.
    case timedOut(String)
    /// Another pairing is under way.
    case busy(String)
    /// BlueZ refused; its error is passed through.
    case bluez(BluezError)
    /// The device has no such feature (e.g. a Heart Rate Control Point).
    case unsupported(BluetoothAddress, String)
    /// The cuff refused what pairing needs beyond the bond (an Omron cuff not in pairing mode, a token not echoed,
    /// a model cuffd cannot read); the bond was removed.
    case refused(BluetoothAddress, String)
    /// The cuff was paired and trusted, and stays so, but the download of its stored readings on the pairing link
    /// stopped before the end (an Omron block that kept arriving broken, docs/omron.md §3): `records` of them were
    /// handed to the store; what was not read is read when the cuff next connects.
    case downloadStopped(BluetoothAddress, records: Int, String)

    public var description: String {
        switch self {
        case .bluetoothUnavailable(let why): "Bluetooth is not available: \(why)"
        case .unknownCuff(let address): "no cuff \(address) is known or in range (is it advertising? try cuffctl scan)"
        case .noCuffs: "no cuff is paired yet (cuffctl pair ADDRESS)"
        case .timedOut(let what): "\(what) timed out"
        case .busy(let what): "\(what) is already under way"
        case .bluez(let error): "bluetoothd: \(error)"
        case let .unsupported(address, what): "\(address) has no \(what)"
        case let .refused(address, why): "\(address) was not paired: \(why)"
        case let .downloadStopped(address, records, why):
            "\(address) is paired and trusted, but the download of its stored readings stopped after \(records) record\(records == 1 ? "" : "s"): "
                + "\(why); what was not read is read when the cuff next connects"
        }
    }
}
