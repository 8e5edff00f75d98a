/// The credentials of the peers that called lately, by unique name, so that a caller's next calls cost no
/// `GetConnectionCredentials` round trip through the bus. Sound because a unique name is never reused on a bus
/// (D-Bus Specification, "Message Bus Specification": unique names) and the bus takes a connection's credentials
/// once, when it connects. Holds at most ``capacity`` names and starts afresh beyond.
struct CredentialsCache {
    /// Names remembered at once.
    static let capacity = 1024

    private var byName: [String: ConnectionCredentials] = [:]

    subscript(name: String) -> ConnectionCredentials? {
        byName[name]
    }

    /// Remembers the credentials of the unique name `name`; a well-known name, which can change owners, is not kept.
    mutating func remember(_ credentials: ConnectionCredentials, of name: String) {
        guard name.hasPrefix(":") else { return }
        if byName.count >= Self.capacity, byName[name] == nil { byName.removeAll(keepingCapacity: true) }
        byName[name] = credentials
    }
}
