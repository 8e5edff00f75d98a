import BlueZ
import GATTHealth

/// Why a Microlife cuff's download stopped (docs/reference/GATT-HEALTH.md §13.12), in words a person can act on.
enum MicrolifeDownloadError: Error, CustomStringConvertible {
    /// No whole answer to `command` came within ``CuffGateway/microlifeAnswerTimeout``.
    case noAnswer(command: String)
    /// The answer to `command` was refused: a bad checksum, a short frame, a record that decodes to nonsense.
    case badAnswer(command: String, MicrolifeError)
    /// The cuff's clock cannot take the gateway's year.
    case clock(MicrolifeError)
    case bluez(BluezError)

    var description: String {
        switch self {
        case .noAnswer(let command): "no answer to \(command) within \(CuffGateway.microlifeAnswerTimeout); nothing of its memory was stored"
        case let .badAnswer(command, error): "the answer to \(command) was refused: \(error)"
        case .clock(let error): "the cuff's clock was not set: \(error)"
        case .bluez(let error): "bluetoothd: \(error)"
        }
    }
}
