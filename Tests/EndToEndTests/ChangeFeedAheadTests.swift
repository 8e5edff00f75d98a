import DBus
import DBusTestSupport
import Foundation
import Testing

/// `ChangeColumns` paged by a client catching up, as cuff-forward pages it: cuffd reads the page after each one that
/// says `more` while the reply crosses the bus (docs/dbus-api.md, "Reads"). What the client sees must be what it would
/// see without: the whole feed in order, and a change committed after a page was read ahead in the pages that follow.
@Suite("ChangeColumns: the next page read ahead, as a client sees it")
struct ChangeFeedAheadTests {
    struct Page {
        let syncIdentifiers: [String]
        let syncVersions: [Int64]
        let anchor: UInt64
        let more: Bool
        let deleted: [String]
    }

    static func page(_ client: DBusConnection, from anchor: UInt64, limit: UInt32) async throws -> Page {
        let request: DBusProperties = ["anchor": DBusVariant(anchor), "limit": DBusVariant(limit)]
        let reply = try await client.call("org.cuffd.Gateway1", "/org/cuffd/Gateway1", "org.cuffd.Gateway1", "ChangeColumns", [request.dbusValue])
        let fields = try #require(try reply.first?.decode(DBusProperties.self))
        let columns = try #require(try fields.property("columns", as: DBusProperties.self))
        guard case .array(_, let deleted)? = fields["deleted"]?.value else { throw TestFailure("no deleted in \(fields)") }
        return Page(
            syncIdentifiers: try columns.property("syncIdentifier", as: [String].self) ?? [],
            syncVersions: try columns.property("syncVersion", as: [Int64].self) ?? [],
            anchor: try #require(try fields.property("anchor", as: UInt64.self)), more: try fields.property("more", as: Bool.self) ?? false,
            deleted: deleted.compactMap { if case .structure(let members) = $0, case .string(let id)? = members.first { id } else { nil } })
    }

    /// Pages of `limit` from `anchor` to the end of the feed.
    static func pages(_ client: DBusConnection, from anchor: UInt64 = 0, limit: UInt32) async throws -> [Page] {
        var pages = [try await page(client, from: anchor, limit: limit)]
        while let last = pages.last, last.more {
            pages.append(try await page(client, from: last.anchor, limit: limit))
        }
        return pages
    }

    @Test("Pages read ahead add up to the feed read in one page; a deletion after a page was read ahead is in the pages that follow")
    func pagesReadAhead() async throws {
        let stack = try await Stack.make(scenario: "passkey.json")
        #expect(try await HostileArgumentTests.replay(try HostileArgumentTests.manyRecords(25, in: stack.directory), into: stack) == 0)
        try await stack.startDaemon()
        let forwarder = try DBusConnection.open(.address(stack.bus.address), label: "forwarder", callTimeout: testDeadline)
        let other = try DBusConnection.open(.address(stack.bus.address), label: "another client", callTimeout: testDeadline)
        defer { forwarder.close(); other.close() }

        let whole = try await Self.page(other, from: 0, limit: 100)
        #expect(whole.syncIdentifiers.count == 25 && !whole.more)
        let paged = try await Self.pages(forwarder, limit: 10)
        #expect(paged.map(\.syncIdentifiers.count) == [10, 10, 5])
        #expect(paged.flatMap(\.syncIdentifiers) == whole.syncIdentifiers)
        #expect(paged.last?.anchor == whole.anchor)

        // Again from the start: the first page's reply starts the read of the second. A reading of the second is
        // deleted before the second is asked; it must not be in it, and the feed's end must say it was deleted.
        let first = try await Self.page(forwarder, from: 0, limit: 10)
        let gone = whole.syncIdentifiers[14]
        let deletion = try await stack.cuffctl(["delete", gone])
        #expect(deletion.status == 0, "\(deletion.error)")
        let rest = try await Self.pages(forwarder, from: first.anchor, limit: 10)
        #expect(!rest.flatMap(\.syncIdentifiers).contains(gone))
        #expect(rest.flatMap(\.syncIdentifiers) == Array(whole.syncIdentifiers.dropFirst(10).filter { $0 != gone }))
        #expect(rest.flatMap(\.deleted) == [gone])
    }
}
