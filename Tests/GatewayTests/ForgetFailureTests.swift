import BlueZ
import DBusTestSupport
import Foundation
import Testing
@testable import Gateway

/// A registry on a disk that no longer takes writes: what it holds can be read, nothing of it removed.
actor UnwritableRegistry: CuffRegistry {
    struct ReadOnly: Error, CustomStringConvertible {
        var description: String { "/var/lib/cuffd/cuffs.json cannot be replaced: a temporary file beside it cannot be created: Read-only file system" }
    }
    let inner = InMemoryCuffRegistry()

    func records() async -> [BluetoothAddress: CuffRecord] { await inner.records() }
    func save(_ record: CuffRecord) async throws { try await inner.save(record) }
    func remove(_ address: BluetoothAddress) throws { throw ReadOnly() }
}

@Suite("Forgetting a cuff whose removal cannot be saved")
struct ForgetFailureTests {
    @Test("The cuff is forgotten, and a problem says, with the cause, that cuffd remembers it again after a restart")
    func unsavedForget() async throws {
        try await withTeardown { teardown in
            let harness = try await GatewayHarness(
                Data(contentsOf: GatewayHarness.folder.appendingPathComponent("passkey.json")), registry: UnwritableRegistry())
            teardown.add { await harness.stop() }
            let cuff = BluetoothAddress("D0:5F:B8:4A:21:07")!
            try await harness.pairAll()
            try await harness.gateway.forget(cuff)
            #expect(await harness.gateway.status(cuff) == nil)
            let problem = try await harness.events.next { if case .problem(_, let what) = $0 { what.contains("forgot") } else { false } }
            guard case let .problem(address, what) = problem else { Issue.record("\(problem)"); return }
            #expect(address == cuff)
            #expect(what == "cannot save that cuffd forgot the cuff (it is remembered again when cuffd restarts): \(UnwritableRegistry.ReadOnly())")
        }
    }
}
