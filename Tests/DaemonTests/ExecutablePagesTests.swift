import CLinux
import Foundation
import Testing

/// `cuffd_release_executable_pages` (docs/cuffd.md, "Memory"), on this test program's own file: the unchanged pages
/// of its read-only mappings leave its RSS, the private copies in them — data relocated at start-up — stay.
@Suite("Memory: releasing the program's own pages")
struct ExecutablePagesTests {
    /// Resident KiB of this program's read-only mappings of its own file, and the anonymous (copied) part of them.
    static func readOnlyPages() throws -> (resident: Int, anonymous: Int) {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var resident = 0, anonymous = 0, counting = false
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                counting = fields.count > 5 && String(fields[5]) == executable && !fields[1].contains("w")
            } else if counting, fields.count >= 2, let kib = Int(fields[1]) {
                if fields[0] == "Rss:" { resident += kib }
                if fields[0] == "Anonymous:" { anonymous += kib }
            }
        }
        return (resident, anonymous)
    }

    @Test("The file's pages are unmapped, the relocated copies kept")
    func unmapsUnchangedPagesOnly() throws {
        let before = try Self.readOnlyPages()
        let released = cuffd_release_executable_pages()
        let after = try Self.readOnlyPages()
        #expect(released > 0)
        #expect(after.resident - after.anonymous < before.resident - before.anonymous)
        // A relocated page thrown away would read back as the file's unrelocated bytes (and this process would crash
        // on its next call through them); a copied page keeps its place.
        #expect(after.anonymous == before.anonymous)
        #expect(before.anonymous > 0)
    }
}
