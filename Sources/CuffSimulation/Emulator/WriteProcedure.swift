import DBus

/// How bluetoothd 5.66 carries a `WriteValue` to the cuff (`characteristic_write_value()` in
/// `src/gatt-client.c`): option `type` chooses, else the characteristic's properties do. bluetoothd checks
/// nothing else itself: a Write Request goes out even to a characteristic without `write`, and the cuff
/// answers it.
enum WriteProcedure: Equatable {
    /// Write Request (also `reliable`, a prepared write): the cuff answers, with an ATT error if it refuses.
    case request
    /// Write Command: no answer, so a refusal is silent and the call succeeds.
    case command

    init(options: DBusProperties, flags: [String]) throws(DBusError) {
        let type: String?
        do {
            type = try options.property("type", as: String.self)?.lowercased()
        } catch {
            throw BluezError.invalidArguments()
        }
        switch type {
        case "request"?, "reliable"?: self = .request
        case "command"?: self = .command
        case nil where flags.contains("write"): self = .request
        case nil where flags.contains("write-without-response"): self = .command
        default: throw BluezError.notSupported()
        }
    }
}
