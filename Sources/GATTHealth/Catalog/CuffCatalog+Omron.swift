extension CuffCatalog {
    /// Omron's models, one per row of ``OmronModel/table`` (docs/omron.md §4), recognised by their code in the name, or by
    /// the name a model advertises instead (``OmronModel/advertisedName``).
    static let omron: [CuffModel] = OmronModel.table.map { model in
        CuffModel(
            brand: "Omron", model: model.name, protocolKind: model.stack == .classic ? .omronClassic : .omronModern,
            signs: [.omronCode(model.name, service: model.stack.serviceUUID)] + (model.advertisedName.map { [.nameContains($0)] } ?? []),
            verdict: .quirk(model.quirks))
    }
}

extension OmronModel {
    /// What its owner should know, from the model's row (docs/omron.md §2, §4, §4a).
    var quirks: String {
        var notes: [String] = switch stack {
        case .classic: ["pair it while \"P\" blinks: cuffd programs its pairing key"]
        case .modern(tokenUnlock: true): ["pairs by bond alone; its memory is unlocked with a token on each link"]
        case .modern(tokenUnlock: false): ["pairs by bond alone"]
        }
        if bondsAnewEveryLink {
            notes.append("it forgets its bond after each link: cuffd removes the bond when a link ends and pairs again when it advertises")
        }
        if let equivalentOf { notes.append("read as a \(equivalentOf): hass-omron lists it among that model's equivalents") }
        notes.append(hasCounters ? "only new records are read" : "every slot is read on each link, each record stored once")
        if clock == nil { notes.append("its clock is not set (no source set it)") }
        return notes.joined(separator: "; ")
    }
}
