import DBus
import HealthStore

/// The change feeds' pages, read ahead for a client catching up (``FeedPagesAhead``).
extension ControlAPI {
    /// A page of `feed` for `caller` (calling from `sender`): the page read ahead for this request when it is current,
    /// else read now by `page`; then, when it says there is more, the page after it is read ahead. A request for the
    /// newest anchor only (`latest`) is read now and starts nothing.
    func feedPage(
        _ feed: FeedPagesAhead.Feed, _ request: ChangeRequest, types: Set<HealthObjectType>, for caller: ConnectionCredentials, sender: String,
        _ page: @escaping @Sendable (ChangeRequest, any HealthStoring, HealthClient) throws -> [String: DBusVariant]
    ) async throws -> [String: DBusVariant] {
        let store = self.store
        guard !request.latest else { return try await read(types, for: caller) { client in try page(request, store, client) } }
        let asked = FeedPagesAhead.Request(
            caller: sender, client: policy.storeClient(for: caller), feed: feed, anchor: UInt64(request.anchor?.rawValue ?? 0), limit: request.limit)
        let reply: [String: DBusVariant]
        if let ahead = await pagesAhead.take(asked, from: store) {
            reply = ahead
        } else {
            reply = try await read(types, for: caller) { client in try page(request, store, client) }
        }
        pagesAhead.readNext(after: reply, answering: asked, of: store) { anchor in
            let following = request.from(anchor)
            return try await self.read(types, for: caller) { client in try page(following, store, client) }
        }
        return reply
    }
}
