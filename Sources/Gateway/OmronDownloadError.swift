import BlueZ
import GATTHealth

/// Why an Omron cuff's download or pairing stopped (docs/omron.md §6), in words a person can act on.
enum OmronDownloadError: Error, CustomStringConvertible {
    /// The advertised name and Model Number name no model of docs/omron.md §4 that speaks a service the cuff
    /// offers (`services`, its `UUIDs`).
    case unknownModel(String, services: [String])
    /// The Model Number String names a model cuffd refuses (``CuffModel/refusal``): the refusal, naming it.
    case refusedModel(String)
    /// The cuff did not enter key programming: it does not show "P".
    case notInPairingMode
    /// The cuff took no new key.
    case keyRefused([UInt8])
    /// No key was programmed yet: the cuff was never paired by cuffd.
    case noKey
    /// The stored key does not unlock the cuff (paired with another host since?).
    case unlockRefused([UInt8])
    /// A 0xFE4A cuff did not echo the token (docs/omron.md §2): its answer, none when nothing came.
    case tokenRefused(sent: [UInt8], answer: [UInt8])
    /// A request had no good answer after every attempt (docs/omron.md §3).
    case noAnswer(String)
    case bluez(BluezError)

    var description: String {
        switch self {
        case let .unknownModel(name, services):
            "\(name) offers Omron's service \(Self.serviceNames(services)), but cuffd knows its memory there only for "
                + "\(Self.modelNames(services)) (docs/omron.md §4); its readings cannot be read yet"
        case .refusedModel(let refusal): refusal
        case .notInPairingMode:
            "the cuff is not in pairing mode: hold its Bluetooth button until \"P\" blinks on the display, then pair again"
        case .keyRefused(let answer): "the cuff refused the new pairing key (\(Self.answer(answer))); pair again while \"P\" blinks"
        case .noKey: "cuffd holds no pairing key for this Omron cuff: hold its Bluetooth button until \"P\" blinks and run cuffctl pair"
        case .unlockRefused(let answer):
            "the cuff refused cuffd's pairing key (\(Self.answer(answer))); it may have been paired elsewhere: hold its Bluetooth button until \"P\" blinks and run cuffctl pair"
        case let .tokenRefused(sent, answer):
            "the cuff did not unlock its memory: the token \(Hex.bytes(sent)) was not echoed (\(Self.answer(answer)), not 91 00 and the token); "
                + "hold its Bluetooth button until \"P\" blinks and pair again"
        case .noAnswer(let what): what
        case .bluez(let error): "bluetoothd: \(error)"
        }
    }

    /// The Omron services among `services`, as docs/omron.md §1 names them.
    private static func serviceNames(_ services: [String]) -> String {
        let offered = OmronStack.serviceUUIDs.filter(services.contains)
        return offered.isEmpty ? "ecbe3980" : offered.map { $0 == OmronModernService.uuid ? "0xFE4A" : "ecbe3980" }.joined(separator: " and ")
    }

    /// The models cuffd reads on the Omron services among `services` (all, when it offers neither yet).
    private static func modelNames(_ services: [String]) -> String {
        let offered = OmronStack.serviceUUIDs.filter(services.contains)
        return (offered.isEmpty ? OmronStack.serviceUUIDs : offered).flatMap(OmronModel.names(speaking:)).joined(separator: ", ")
    }

    /// The cuff's answer on the unlock characteristic, or that none came (docs/omron.md §2).
    private static func answer(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "no answer within \(CuffGateway.omronAnswerTimeout)" : "answer \(Hex.bytes(bytes))"
    }
}
