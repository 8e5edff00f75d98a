import DBus
import Gateway

extension ScannedCuff {
    /// One cuff of the `Scan` reply (docs/dbus-api.md): `address`, `name` (when it advertises one), `model` (the model
    /// or family cuffd recognises), `state` (what its advertisement says of its state; empty for none), `support`
    /// (`supported`, `quirk` or `unsupported`) and `reason` (the quirk or why not; empty for `supported`).
    var scanEntry: DBusProperties {
        var entry: DBusProperties = [
            "address": DBusVariant(device.id.address.description), "model": DBusVariant(model.title),
            "state": DBusVariant(states.joined(separator: "; ")),
            "support": DBusVariant(model.verdict.word), "reason": DBusVariant(model.verdict.reason),
        ]
        if let name = device.name { entry["name"] = DBusVariant(name) }
        return entry
    }
}
