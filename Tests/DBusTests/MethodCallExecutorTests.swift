import DBusTestSupport
import Dispatch
import Foundation
import Testing
@testable import DBus

/// A task executor of its own: a serial queue that tells its jobs apart from anyone else's.
private final class QueueExecutor: TaskExecutor, @unchecked Sendable {
    static let key = DispatchSpecificKey<Bool>()
    let queue = DispatchQueue(label: "method-call-executor-test")

    init() {
        queue.setSpecific(key: Self.key, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

@Suite("Where exported methods run, and who calls them")
struct MethodCallExecutorTests {
    @Test("After runMethodCalls(on:), handlers and property setters run on that executor; with nil, on the default one again")
    func handlersRunOnTheChosenExecutor() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { server.close(); client.close() }
        let setterRanThere = Observed<Bool?>(nil)
        await server.export([DBusInterface("org.cuffd.Test.Where1", methods: [
            .init("Where", outputs: [.init("onExecutor", .boolean)]) { _ in [.boolean(QueueExecutor.isCurrent)] },
        ], properties: [
            .init("Value", Int32(0), access: .readwrite) { value, _ in
                setterRanThere.update { $0 = QueueExecutor.isCurrent }
                return value
            },
        ])], at: "/t")
        let executor = QueueExecutor()
        await server.runMethodCalls(on: executor)
        #expect(try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Where1", "Where") == [.boolean(true)])
        _ = try await client.call(server.uniqueName, "/t", StandardInterface.properties, "Set", [.string("org.cuffd.Test.Where1"), .string("Value"), .variant(.int32(1))])
        #expect(setterRanThere.value == true)
        await server.runMethodCalls(on: nil)
        #expect(try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Where1", "Where") == [.boolean(false)])
    }

    @Test("A caller's credentials are remembered by unique name only, and the memory is bounded")
    func credentialsCache() {
        var cache = CredentialsCache()
        let alice = ConnectionCredentials(uid: 1000, groups: [100], processID: 7)
        cache.remember(alice, of: ":1.7")
        cache.remember(alice, of: "org.cuffd.Gateway1")
        #expect(cache[":1.7"] == alice)
        #expect(cache["org.cuffd.Gateway1"] == nil, "a well-known name can change owners")
        for n in 0..<CredentialsCache.capacity { cache.remember(alice, of: ":2.\(n)") }
        let remembered = ([":1.7"] + (0..<CredentialsCache.capacity).map { ":2.\($0)" }).filter { cache[$0] != nil }
        #expect(remembered.count <= CredentialsCache.capacity)
        #expect(cache[":2.\(CredentialsCache.capacity - 1)"] == alice, "the newest is kept")
    }

    @Test("credentials(of:) answers the same from memory as from the bus")
    func credentialsTwice() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { server.close(); client.close() }
        let first = try await server.credentials(of: client.uniqueName)
        #expect(server.credentialsCache.withLock { $0[client.uniqueName] } == first)
        #expect(try await server.credentials(of: client.uniqueName) == first)
        #expect(first.uid == getuid())
    }
}
