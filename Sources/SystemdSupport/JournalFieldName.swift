/// Journal field names: 1–64 characters of `A–Z`, `0–9` and `_`, not starting with a digit, and not with
/// `_` (those are trusted fields a client cannot set) — systemd's `journal_field_valid()`,
/// docs/reference/BLUEZ-DBUS.md §17. swift-log metadata keys such as `device.address` are mapped (`DEVICE_ADDRESS`)
/// instead of being dropped by the journal.
enum JournalFieldName {
    static let maximumLength = 64

    /// The journal name for a metadata key, or nil when nothing usable is left of it.
    static func mapping(_ key: String) -> String? {
        var name = String(key.uppercased().map { character -> Character in
            character.isASCII && (character.isLetter || character.isNumber) ? character : "_"
        })
        while name.first == "_" { name.removeFirst() }
        if name.first?.isNumber == true { name = "F_" + name }
        guard !name.isEmpty else { return nil }
        return String(name.prefix(maximumLength))
    }
}
