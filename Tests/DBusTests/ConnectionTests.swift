import DBus
import DBusTestSupport
import Foundation
import Testing

@Suite("D-Bus connections on a private bus")
struct ConnectionTests {
    @Test("Every type survives a method call and its reply between two connections; texts written as .strings arrive as the as they stand for")
    func roundTripsEveryType() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), label: "server", callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), label: "client", callTimeout: testDeadline)
        defer { server.close(); client.close() }
        await server.export([EchoService.interface], at: EchoService.path)

        for value in try ValueSamples.all() {
            let reply = try await client.call(server.uniqueName, EchoService.path, EchoService.interfaceName, "Echo", [.variant(value)])
            #expect(reply == [.variant(value)], "\(value.type.signature)")
        }
        for texts in [[], ["systolic 120 mmHg, ümlaut ✓", "", "E83CA1-0001"]] {
            let sent = DBusValue.strings(texts)
            #expect(sent.type == .array(.string))
            #expect(try [String](dbusValue: sent) == texts)
            let reply = try await client.call(server.uniqueName, EchoService.path, EchoService.interfaceName, "Echo", [.variant(sent)])
            #expect(reply == [.variant(.array(.string, texts.map(DBusValue.string)))])
            #expect(try reply.first?.decode(DBusVariant.self).decode([String].self) == texts)
        }
    }

    @Test("An unknown method, wrong arguments and a thrown error reach the caller as D-Bus errors")
    func errorsCrossTheBus() async throws {
        struct Refusal: DBusErrorConvertible {
            var dbusError: DBusError { DBusError("org.cuffd.Error.UnknownDevice", "no cuff C4:F3:12:53:F2:C9") }
        }
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { server.close(); client.close() }
        await server.export([DBusInterface("org.cuffd.Test.Fail1", methods: [.init("Fail") { _ in throw Refusal() }])], at: "/t")

        await #expect(throws: DBusError("org.cuffd.Error.UnknownDevice", "no cuff C4:F3:12:53:F2:C9")) {
            try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Fail1", "Fail")
        }
        let unknown = await #expect(throws: DBusError.self) { try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Fail1", "Nope") }
        #expect(unknown?.name == .unknownMethod)
        let wrongArguments = await #expect(throws: DBusError.self) { try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Fail1", "Fail", [.uint32(1)]) }
        #expect(wrongArguments?.name == .invalidArgs)
        let noObject = await #expect(throws: DBusError.self) { try await client.call(server.uniqueName, "/elsewhere", "org.cuffd.Test.Fail1", "Fail") }
        #expect(noObject?.name == .unknownMethod || noObject?.name == .unknownObject)
        let noService = await #expect(throws: DBusError.self) { try await client.call("org.cuffd.Absent", "/", "org.cuffd.Test.Fail1", "Fail") }
        #expect(noService?.name == .serviceUnknown)
    }

    @Test("A call that names no timeout waits as long as its connection's callTimeout")
    func connectionsCallTimeout() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: .milliseconds(300))
        let answer = Gate()  // opened only when the test is over: until then the handler never answers
        defer { answer.open(); server.close(); client.close() }
        await server.export([DBusInterface("org.cuffd.Test.Slow1", methods: [.init("Hang") { _ in
            try await answer.wait()
            return []
        }])], at: "/t")
        #expect(client.callTimeout == .milliseconds(300))
        let error = await #expect(throws: DBusError.self) { try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Slow1", "Hang") }
        #expect(error?.name == .noReply)
    }

    @Test("A call times out with NoReply when the peer never answers, without blocking other calls")
    func timesOut() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let answer = Gate()  // opened only when the test is over: until then the handler never answers
        defer { answer.open(); server.close(); client.close() }
        await server.export([
            DBusInterface("org.cuffd.Test.Slow1", methods: [.init("Hang") { _ in
                try await answer.wait()
                return []
            }]),
            EchoService.interface,
        ], at: "/t")
        let hanging = Task { try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Slow1", "Hang", timeout: .milliseconds(300)) }
        // Meanwhile the same connections keep working.
        let echoed = try await client.call(server.uniqueName, "/t", EchoService.interfaceName, "Echo", [.variant(.uint32(5))])
        #expect(echoed == [.variant(.uint32(5))])
        let error = await #expect(throws: DBusError.self) { try await hanging.value }
        #expect(error?.name == .noReply)
    }

    @Test("A handler can call back into its caller before it replies (BlueZ's Pair → Agent1 pattern)")
    func callbackBeforeReply() async throws {
        let bus = try PrivateBus()
        let bluez = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { bluez.close(); client.close() }
        await client.export([DBusInterface("org.bluez.Agent1", methods: [
            .init("RequestPasskey", inputs: [.init("device", .objectPath)], outputs: [.init("passkey", .uint32)]) { _ in [.uint32(123456)] },
        ])], at: "/org/cuffd/agent")
        await bluez.export([DBusInterface("org.bluez.Device1", methods: [.init("Pair") { call in
            let passkey = try await call.connection.call(call.sender, "/org/cuffd/agent", "org.bluez.Agent1", "RequestPasskey", [.objectPath(call.path)])
            guard passkey == [.uint32(123456)] else { throw DBusError("org.bluez.Error.AuthenticationFailed", "wrong passkey") }
            return []
        }])], at: "/org/bluez/hci0/dev_C4_F3_12_53_F2_C9")
        let reply = try await client.call(bluez.uniqueName, "/org/bluez/hci0/dev_C4_F3_12_53_F2_C9", "org.bluez.Device1", "Pair", timeout: testDeadline)
        #expect(reply.isEmpty)
    }

    @Test("Signals arrive in order through a stream subscribed before the call that triggers them")
    func signalStream() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { server.close(); client.close() }
        await server.export([EchoService.interface], at: EchoService.path)
        let ticks = try await client.signals(matching: MatchRule(interface: EchoService.interfaceName, member: "Tick", path: EchoService.path))
        let other = try await client.signals(matching: MatchRule(interface: EchoService.interfaceName, member: "Other"))
        _ = try await client.call(server.uniqueName, EchoService.path, EchoService.interfaceName, "EmitSignals", [.uint32(500), .bytes([1, 2, 3])])
        var indexes: [UInt32] = []
        for await tick in ticks {
            indexes.append(try tick.argument(0))
            #expect(tick.sender == server.uniqueName)
            if indexes.count == 500 { break }
        }
        #expect(indexes == Array(0..<500))
        // The other subscription saw none of them: routing is by rule, not by connection.
        client.close()
        var otherCount = 0
        for await _ in other { otherCount += 1 }
        #expect(otherCount == 0)
    }

    @Test("One stream over several rules keeps the signals' order and delivers a signal matching two rules once")
    func oneStreamOverSeveralRules() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { server.close(); client.close() }
        let first = "org.cuffd.Test.First1", second = "org.cuffd.Test.Second1"
        let stream = try await client.signals(matchingAny: [
            MatchRule(interface: first), MatchRule(interface: second), MatchRule(member: "Both"),
        ])
        for index in 0..<200 {
            try server.emitSignal("/t", index.isMultiple(of: 2) ? first : second, index.isMultiple(of: 10) ? "Both" : "Tick", [.uint32(UInt32(index))])
        }
        try server.emitSignal("/t", "org.cuffd.Test.Neither1", "Tick", [.uint32(999)])
        try server.emitSignal("/t", first, "Last", [.uint32(200)])
        var received: [UInt32] = []
        for await signal in stream {
            received.append(try signal.argument(0))
            if received.last == 200 { break }
        }
        #expect(received == Array(0...200))
    }

    @Test("A rule naming a well-known sender follows that name's owner")
    func wellKnownSender() async throws {
        let bus = try PrivateBus()
        let bluez = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let impostor = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { bluez.close(); impostor.close(); client.close() }
        #expect(try await bluez.requestName("org.bluez") == .primaryOwner)
        let stream = try await client.signals(matching: MatchRule(sender: "org.bluez", member: "Tick"))
        try impostor.emitSignal("/x", "org.cuffd.Test", "Tick", [.string("impostor")])
        try bluez.emitSignal("/x", "org.cuffd.Test", "Tick", [.string("bluez")])
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.arguments == [.string("bluez")])
    }

    @Test("A sender rule still follows the owner when the same name is already watched with nameOwnerChanges")
    func senderRuleAfterOwnerWatch() async throws {
        let bus = try PrivateBus()
        let bluez = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { bluez.close(); client.close() }
        #expect(try await bluez.requestName("org.bluez") == .primaryOwner)
        let owners = try await client.nameOwnerChanges(of: "org.bluez")
        let stream = try await client.signals(matching: MatchRule(sender: "org.bluez", member: "Tick"))
        let recorded = StreamRecorder(stream)
        try bluez.emitSignal("/x", "org.cuffd.Test", "Tick", [.string("bluez")])
        // Bounded: a rule that never matches must fail the test, not hang it.
        let first = try await recorded.next { _ in true }
        #expect(first.arguments == [.string("bluez")])
        _ = owners
    }

    @Test("Names: request, queue, NameOwnerChanged on release and on a vanished owner")
    func names() async throws {
        let bus = try PrivateBus()
        let first = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let second = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let watcher = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { second.close(); watcher.close() }
        let changes = try await watcher.nameOwnerChanges(of: "org.bluez")
        #expect(try await first.requestName("org.bluez") == .primaryOwner)
        #expect(try await first.requestName("org.bluez") == .alreadyOwner)
        #expect(try await second.requestName("org.bluez") == .exists)
        #expect(try await watcher.nameOwner(of: "org.bluez") == first.uniqueName)
        first.close()  // bluetoothd going away
        #expect(try await second.requestName("org.bluez") == .primaryOwner)
        try await second.releaseName("org.bluez")
        var seen: [NameOwnerChange] = []
        for await change in changes {
            seen.append(change)
            if seen.count == 4 { break }
        }
        #expect(seen == [
            NameOwnerChange(name: "org.bluez", oldOwner: nil, newOwner: first.uniqueName),
            NameOwnerChange(name: "org.bluez", oldOwner: first.uniqueName, newOwner: nil),
            NameOwnerChange(name: "org.bluez", oldOwner: nil, newOwner: second.uniqueName),
            NameOwnerChange(name: "org.bluez", oldOwner: second.uniqueName, newOwner: nil),
        ])
    }

    @Test("Losing the bus fails pending calls, ends streams and reports .disconnected")
    func busLoss() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let called = Gate(), answer = Gate()
        defer { answer.open() }
        await server.export([DBusInterface("org.cuffd.Test.Slow1", methods: [.init("Hang") { _ in
            called.open()
            try await answer.wait()
            return []
        }])], at: "/t")
        let events = client.events()
        let stream = try await client.signals(matching: MatchRule(member: "Tick"))
        let hanging = Task { try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Slow1", "Hang", timeout: testDeadline) }
        // The call is pending once the server is in its handler.
        try await called.wait()
        bus.stop()
        let error = await #expect(throws: DBusError.self) { try await hanging.value }
        #expect(error?.name == .disconnected || error?.name == .noReply)
        for await _ in stream {}
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .disconnected)
        await #expect(throws: DBusError.self) { try await client.call("org.freedesktop.DBus", "/", "org.freedesktop.DBus", "GetId") }
    }

    @Test("The caller's unix user is known to a handler")
    func callerCredentials() async throws {
        let bus = try PrivateBus()
        let server = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        let client = try DBusConnection.open(.address(bus.address), callTimeout: testDeadline)
        defer { server.close(); client.close() }
        await server.export([DBusInterface("org.cuffd.Test.Who1", methods: [
            .init("WhoAmI", outputs: [.init("uid", .uint32)]) { call in [.uint32(try await call.callerUnixUser())] },
        ])], at: "/t")
        let reply = try await client.call(server.uniqueName, "/t", "org.cuffd.Test.Who1", "WhoAmI")
        #expect(reply == [.uint32(getuid())])
        let credentials = try await server.credentials(of: client.uniqueName)
        #expect(credentials.uid == getuid())
        #expect(credentials.groups.contains(getgid()))
        #expect(credentials.processID == UInt32(getpid()))
    }
}
