/// The objects a connection exports: interfaces per path, in export order, with their current
/// property values, and the paths that carry an ObjectManager. Only touched on the queue.
struct ObjectTree {
    private(set) var objects: [DBusObjectPath: [DBusInterface]] = [:]
    private(set) var managers: Set<DBusObjectPath> = []

    func interfaces(at path: DBusObjectPath) -> [DBusInterface]? {
        objects[path]
    }

    func interface(_ name: String, at path: DBusObjectPath) -> DBusInterface? {
        objects[path]?.first { $0.name == name }
    }

    /// Adds interfaces to a path; an interface already there is replaced.
    mutating func add(_ interfaces: [DBusInterface], at path: DBusObjectPath) {
        var existing = objects[path] ?? []
        for interface in interfaces {
            if let index = existing.firstIndex(where: { $0.name == interface.name }) {
                existing[index] = interface
            } else {
                existing.append(interface)
            }
        }
        objects[path] = existing
    }

    /// Removes the named interfaces (all when nil); returns the names actually removed.
    mutating func remove(_ names: [String]?, at path: DBusObjectPath) -> [String] {
        guard let existing = objects[path] else { return [] }
        let removed = existing.filter { names?.contains($0.name) ?? true }.map(\.name)
        let kept = existing.filter { !removed.contains($0.name) }
        objects[path] = kept.isEmpty ? nil : kept
        return removed
    }

    /// Stores a property's new value; returns false when there is no such property.
    mutating func setValue(_ value: DBusValue, property: String, interface: String, at path: DBusObjectPath) -> Bool {
        guard var interfaces = objects[path],
              let i = interfaces.firstIndex(where: { $0.name == interface }),
              let p = interfaces[i].properties.firstIndex(where: { $0.name == property })
        else { return false }
        interfaces[i].properties[p].value = value
        objects[path] = interfaces
        return true
    }

    mutating func addManager(at path: DBusObjectPath) {
        managers.insert(path)
    }

    /// The nearest ObjectManager strictly above `path` (specification: a manager reports the
    /// objects beneath it), which announces `path`'s interfaces coming and going.
    func manager(above path: DBusObjectPath) -> DBusObjectPath? {
        var candidate = path.parent
        while let current = candidate {
            if managers.contains(current) { return current }
            candidate = current.parent
        }
        return nil
    }

    /// Objects strictly beneath `path`, sorted.
    func objects(beneath path: DBusObjectPath) -> [(DBusObjectPath, [DBusInterface])] {
        objects.filter { $0.key != path && $0.key.isDescendant(of: path) }.sorted { $0.key < $1.key }
    }

    /// Names of the immediate children of `path` on the way to exported objects.
    func childNames(of path: DBusObjectPath) -> [String] {
        let prefix = path.text == "/" ? "/" : path.text + "/"
        var names = Set<String>()
        for key in objects.keys where key.text.hasPrefix(prefix) && key != path {
            let rest = key.text.dropFirst(prefix.count)
            names.insert(String(rest.prefix { $0 != "/" }))
        }
        return names.sorted()
    }

    /// Whether anything is exported at or beneath `path` (such a path answers Introspect).
    func hasNode(_ path: DBusObjectPath) -> Bool {
        objects[path] != nil || managers.contains(path) || !childNames(of: path).isEmpty
    }
}
