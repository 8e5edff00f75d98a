/// An immutable value behind one reference, so copies of samples share their device and source
/// revision (eleven and five strings) with a single retain instead of one per string. Equality
/// and hashing are by value.
final class SharedValue<Value: Hashable & Sendable>: Hashable, Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (a: SharedValue, b: SharedValue) -> Bool { a === b || a.value == b.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
