/// Omron's newer service, 0xFE4A, which newer cuffs offer instead of ``OmronService`` (docs/omron.md §1, §7;
/// hass-omron `omron_ble/const.py` `MODERN_STACK_PARENT_SERVICE_UUID`, `device_catalog.py`). cuffd does not speak
/// it yet: it needs one transmit and one receive channel carrying whole packets, a plain Bluetooth bond instead
/// of a programmed key, and on most models a token unlock (`UnlockMode.TOKEN_KEY`: `11` + 4 bytes of the host's
/// choosing + 15 × `00`, answered `91 00` + the same 4 bytes). `cuffctl pair` refuses such a cuff in these words.
public enum OmronModernService {
    /// The service as BlueZ's `UUIDs` property spells it.
    public static let uuid = "0000fe4a-0000-1000-8000-00805f9b34fb"

    /// The 0xFE4A models hass-omron's `README.md` marks verified, and whether `device_catalog.py` gives them
    /// the token unlock (HEM-7142T2, HEM-716BT2) or none (HEM-7146T2, an equivalent of its HEM-7146T).
    public static let verifiedModels: [(name: String, tokenUnlock: Bool)] = [
        ("HEM-7142T2", true), ("HEM-716BT2", true), ("HEM-7146T2", false),
    ]

    /// Why cuffd cannot read the cuff called `name` (its advertised name) through this service, in words.
    public static func refusal(name: String) -> String {
        let upper = name.uppercased()
        let model = verifiedModels.first { upper.contains($0.name) }
        let what = model.map { "\(name) (\($0.name))" } ?? name
        let unlock = model.map { $0.tokenUnlock ? "its 0x11/0x91 token unlock" : "its unlock-free memory access" } ?? "its unlock"
        return "\(what) offers Omron's newer service 0xFE4A, which cuffd does not speak yet: it lacks that service's "
            + "single-channel packets, pairing by bond alone and \(unlock) (docs/omron.md §7); cuffd reads Omron cuffs "
            + "of the ecbe3980 service only (\(OmronModel.table.map(\.name).joined(separator: ", ")))"
    }
}
