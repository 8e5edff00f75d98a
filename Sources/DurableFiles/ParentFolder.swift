/// The folder part of a file's path, as NSString's `deletingLastPathComponent` gives it: `/var/lib/cuff-forward/anchor`
/// → `/var/lib/cuff-forward`, `/anchor` → `/`, `anchor` → `` (the current folder). Here rather than through NSString:
/// cuff-forward links FoundationEssentials only, without Foundation's CoreFoundation and ICU (Benchmarks/RESULTS.md,
/// "cuff-forward's idle RSS").
public func parentFolder(of path: String) -> String {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
    guard let slash = path.lastIndex(of: "/") else { return "" }
    var folder = path[..<slash]
    while folder.hasSuffix("/") { folder = folder.dropLast() }
    return folder.isEmpty ? "/" : String(folder)
}
