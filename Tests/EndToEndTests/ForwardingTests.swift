import BenchmarkSupport
import DBusTestSupport
import Foundation
import HealthStore
import Testing

/// cuff-forward against a real PostgreSQL, following cuffd over cuff-sim (docs/forwarding.md): every reading once,
/// whatever crashes or goes away, deletions included.
@Suite(
    "cuff-forward → PostgreSQL", .serialized,
    .enabled(if: getuid() == 0, "runs PostgreSQL and cuff-forward as nobody, which needs root"),
    .enabled(if: PostgresServer.available, "needs Debian's postgresql package (scripts/install-deps)"))
struct ForwardingTests {
    static let cuff = "E8:2A:44:10:3C:5D"

    @Test("Readings arrive once; a stop between COMMIT and the anchor write sends again, still once; a deletion is deleted centrally")
    func exactlyOnce() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.pairedAndForwarded(teardown)
            let stack = forwarding.stack
            #expect(try await forwarding.centralReadings().count == 3)
            #expect(try await forwarding.query("SELECT DISTINCT device_firmware FROM readings") == ["1.4.2"])

            // The moment between the server's COMMIT and the anchor's rename: with its state folder closed to it,
            // cuff-forward commits and then cannot write the anchor, and stops there (exit 74), as a crash at that
            // moment would leave things.
            try await forwarding.killForwarder()
            let committedAnchor = try String(contentsOfFile: forwarding.anchorPath, encoding: .utf8)
            let state = URL(fileURLWithPath: forwarding.anchorPath).deletingLastPathComponent().path
            #expect(chmod(state, 0o500) == 0)
            try forwarding.startForwarder(log: "forward-held.log")
            #expect(try await stack.measure(Self.cuff).status == 0)
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.centralReadings().count == 4)
            let held = try #require(forwarding.forwarder)
            #expect(try await offCooperativePool { held.waitForExit(killingAfter: 60) } == 74, "cuff-forward did not stop at the anchor write")
            #expect(try String(contentsOfFile: forwarding.anchorPath, encoding: .utf8) == committedAnchor)
            // Its last line (the pipe may still hold it when the process has exited); a "forwarded" line would be before it.
            try await stack.wait(for: "anchor cannot be replaced: a temporary file beside it cannot be created: Permission denied", in: "forward-held.log")
            #expect(!stack.text("forward-held.log").contains("forwarded 1 readings"))
            #expect(chmod(state, 0o700) == 0)

            // Started again, it sends the committed page once more from the old anchor: the table is unchanged.
            try forwarding.startForwarder(log: "forward-again.log")
            try await stack.wait(for: "forwarded 1 readings", in: "forward-again.log")
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.query("SELECT count(*), count(DISTINCT sync_identifier) FROM readings") == ["4|4"])
            #expect(try String(contentsOfFile: forwarding.anchorPath, encoding: .utf8) != committedAnchor)

            // A reading deleted from the gateway's store (cuffd stopped, the store opened here) is deleted centrally once
            // cuffd is back: cuff-forward follows it across the restart. The newest, the one measured: the cuff keeps
            // the other three in its memory and sends them again whenever it next connects, which would save them anew.
            #expect(try await stack.stopDaemon() == 0)
            let deleted = try Self.deleteOneReading(store: stack.storePath, sort: .startDateDescending)
            try await stack.startDaemon()
            #expect(try await !forwarding.gatewayReadings().contains { $0.hasPrefix(deleted + "|") })
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.query("SELECT deleted_at IS NOT NULL FROM readings WHERE sync_identifier = '\(deleted)'") == ["t"])
            #expect(try await forwarding.centralReadings().count == 3)
        }
    }

    @Test("cuffctl delete while cuff-forward runs: ReadingsChanged wakes it, the row is deleted centrally; the cuff sending the reading again does not bring it back")
    func deleteOnRequest() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.pairedAndForwarded(teardown)
            let stack = forwarding.stack
            let oldest = try #require(try await stack.readings().first?["syncIdentifier"] as? String)

            #expect(try await stack.cuffctl(["delete", oldest]).status == 0)
            // No reading follows: the signal of the deletion alone brings it to PostgreSQL.
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.query("SELECT deleted_at IS NOT NULL FROM readings WHERE sync_identifier = '\(oldest)'") == ["t"])
            try await stack.wait(for: "forwarded 0 readings and 1 deletions", in: "forward.log")

            // The cuff connects again and sends its stored records, the deleted one among them, with a new reading.
            #expect(try await stack.measure(Self.cuff).status == 0)
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.centralReadings().count == 3)
            #expect(try await forwarding.query("SELECT count(*), count(deleted_at) FROM readings") == ["4|1"])
        }
    }

    @Test("cuffctl annotate and add while cuff-forward runs: ReadingsChanged wakes it; the central row takes the new revision with its corrections (schema version 4), the reading entered by hand arrives marked")
    func annotateOnRequest() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.pairedAndForwarded(teardown)
            let oldest = try #require(try await forwarding.stack.readings().first?["syncIdentifier"] as? String)
            let row = "SELECT sync_version, deleted_at IS NULL, coalesce(exclusion_reason, '-'), coalesce(arm, '-'), coalesce(note, '-') FROM readings"
            #expect(try await forwarding.query(row + " WHERE sync_identifier = '\(oldest)'") == ["0|t|-|-|-"])
            #expect(try await forwarding.stack.cuffctl(["annotate", oldest, "--exclude", "cuff slipped", "--arm", "left", "--note", "redo"]).status == 0)
            try await forwarding.stack.wait(for: "forwarded 1 readings and 1 deletions", in: "forward.log")
            #expect(try await forwarding.query(row + " WHERE sync_identifier = '\(oldest)'") == ["1|t|cuff slipped|left|redo"])

            let added = try await forwarding.stack.cuffctl(["add", "121/79", "--position", "sitting"])
            #expect(added.status == 0, "\(added.error)")
            let identifier = added.output.trimmingCharacters(in: .whitespacesAndNewlines)
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.query(
                "SELECT entered_by_hand, position, device_address IS NULL, systolic FROM readings WHERE sync_identifier = '\(identifier)'") == ["t|sitting|t|121"])
        }
    }

    @Test("PostgreSQL down when cuff-forward starts, then stopped again mid-way: every reading arrives, each outage logged once and shown by forward status; idle, nothing wakes it")
    func serverOutages() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.migratedAndGranted(teardown)
            let stack = forwarding.stack
            try await offCooperativePool { try forwarding.server.stop() }
            try forwarding.startForwarder()
            #expect(try await stack.cuffctl(["pair", Self.cuff]).status == 0)
            try await stack.wait(for: "PostgreSQL is unreachable", in: "forward.log")
            // Another attempt while the server is down, for the outage to be logged once over several.
            try await stack.waitUntilRetried(status: forwarding.statusPath)
            try await offCooperativePool { try forwarding.server.start() }
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.centralReadings().count == 3)

            try await offCooperativePool { try forwarding.server.stop() }
            #expect(try await stack.measure(Self.cuff).status == 0)
            // cuffctl forward status tells the state, the reading waiting, and why, in words: once cuff-forward,
            // rung by cuffd for the new reading, has found the server gone.
            let waiting = try await stack.waitForForwardStatus(forwarding.statusPath, "waiting for PostgreSQL") {
                $0["state"] as? String == "waiting for PostgreSQL"
            }
            #expect(waiting["lagReadings"] as? Int == 1 && (waiting["lagSeconds"] as? Double ?? 0) > 0, "\(waiting)")
            #expect((waiting["lastError"] as? String)?.isEmpty == false, "\(waiting)")
            try await offCooperativePool { try forwarding.server.start() }
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.centralReadings().count == 4)
            // The status is written once the page's anchor is stored, after the commit.
            let caughtUp = try await stack.waitForForwardStatus(forwarding.statusPath, "forwarding, caught up") {
                $0["state"] as? String == "forwarding" && $0["lagReadings"] as? Int == 0
            }
            #expect(caughtUp["lastSyncIdentifier"] is String && caughtUp["gateway"] as? String == "ward3", "\(caughtUp)")
            let log = stack.text("forward.log")
            #expect(log.components(separatedBy: "PostgreSQL is unreachable").count == 3, "\(log)")
            #expect(log.components(separatedBy: "connected to PostgreSQL").count == 3, "\(log)")

            // Caught up, it sleeps until cuffd signals: no thread of it runs for three seconds (a window of measurement,
            // not a wait for anything).
            let idle = try await ThreadSwitches.wokenWhileIdle(try #require(forwarding.forwarder?.pid))
            #expect(idle.woken == [:], "\(idle.names)")
        }
    }

    @Test("A uid cuffd does not let read: exit 77 and what to do; a bad forward.conf: exit 78 naming the line")
    func refusals() async throws {
        try await withTeardown { teardown in
            // cuffd's reader group is one nobody is not in.
            let forwarding = try await ForwardingStack.make(scenario: "one-cuff.json", readerGroup: "root")
            teardown.add { forwarding.server.remove() }
            try await forwarding.stack.startDaemon()
            let refused = try await forwarding.runForwarder(["--config", forwarding.configurationPath])
            #expect(refused.status == 77, "\(refused.standardError)")
            #expect(refused.standardError.contains("cuffctl grant UID bloodPressure read"), "\(refused.standardError)")

            let bad = forwarding.directory.appendingPathComponent("bad.conf").path
            try "[Forward]\nGateway=ward3\n[PostgreSQL]\nURL=postgresql://db/x\nSSLMode=sometimes\n".write(toFile: bad, atomically: false, encoding: .utf8)
            let malformed = try await forwarding.runForwarder(["--config", bad])
            #expect(malformed.status == 78)
            #expect(malformed.standardError.contains("bad.conf:5: SSLMode must be one of"), "\(malformed.standardError)")
        }
    }

    @Test("A gateway role refused temporary tables, which each page is copied into: exit 77 and the GRANT that allows them; granted, every reading")
    func temporaryTablesRefused() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.migratedAndGranted(teardown)
            #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
            // The role owns the database, so it holds the privilege itself besides PUBLIC's.
            _ = try await forwarding.query("REVOKE TEMPORARY ON DATABASE health FROM PUBLIC, \(forwarding.role)")
            let refused = try await forwarding.runForwarder(["--config", forwarding.configurationPath])
            #expect(refused.status == 77, "\(refused.standardError)")
            #expect(refused.standardError.contains("GRANT TEMPORARY ON DATABASE health TO \(forwarding.role)"), "\(refused.standardError)")
            #expect(try await forwarding.query("SELECT count(*) FROM readings") == ["0"])

            _ = try await forwarding.query("GRANT TEMPORARY ON DATABASE health TO \(forwarding.role)")
            try forwarding.startForwarder()
            try await forwarding.waitUntilCentralMatchesGateway()
        }
    }

    @Test("verify-full with the test CA's certificate: TLS, and every reading; another CA or another host name: refused, nothing written")
    func verifiedTLS() async throws {
        try await withTeardown { teardown in
            let forwarding = try await ForwardingStack.make(scenario: "stored-records.json", tls: true)
            teardown.add { forwarding.server.remove() }
            let stack = forwarding.stack, server = forwarding.server
            let certificates = try #require(server.certificates)
            let stranger = try await offCooperativePool { try TestCertificates(in: forwarding.directory, name: "stranger") }
            try await stack.startDaemon()
            let refusals = [
                ("127.0.0.1", certificates.authority, "does not match host name"),
                ("localhost", stranger.authority, "certificate verify failed"),
            ]
            for (host, authority, reason) in refusals {
                try forwarding.writeConfiguration(url: "postgresql://gateway1@\(host):\(server.port)/health?sslrootcert=\(authority)", sslMode: "verify-full")
                let refused = try await forwarding.runForwarder(["--config", forwarding.configurationPath, "--migrate"])
                #expect(refused.status == 69 && refused.standardError.contains(reason), "\(refused.standardError)")
            }
            // A server that wants Kerberos (GSSAPI) authentication of this role: refused in words, not a stop. The release
            // build's libpq has no GSSAPI and says so (releaseLink); a debug build's asks MIT Kerberos, which has no
            // credentials here.
            let kerberos = try await Self.kerberizedLogin(forwarding, certificates)
            #expect(kerberos.status == 69 && kerberos.standardError.contains("GSSAPI"), "\(kerberos.status) \(kerberos.standardError)")
            #expect(try await forwarding.query("SELECT count(*) FROM pg_tables WHERE tablename = 'readings'") == ["0"])

            try await Self.forwardOverTLS(forwarding, certificates)
            try await stack.wait(for: "connected to PostgreSQL (TLS)", in: "forward.log")
            // The server's own view of the session (pg_stat_ssl, §28.2.3).
            let sessions = try await forwarding.query(
                "SELECT ssl FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE application_name = 'cuff-forward'")
            #expect(sessions == ["t"])
        }
    }

    @Test("A backlog through faults — the session ended by pg_terminate_backend, cuff-forward SIGKILLed, at random moments — then a revision: each reading once, the newest revision")
    func backlogThroughFaults() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.migratedAndGranted(teardown, backlog: 4_000)
            let stack = forwarding.stack
            try forwarding.startForwarder()
            // 20 faults 10–80 ms apart: most land while the backlog is being sent (a page of 1 000 every few hundred ms).
            try await Self.faults(20, apart: 10...80, ending: forwarding, killing: forwarding)
            try await forwarding.waitUntilCentralMatchesGateway(within: .seconds(180))
            #expect(try await forwarding.query("SELECT count(*), count(DISTINCT sync_identifier) FROM readings") == ["4000|4000"])

            // A reading revised in the gateway's store (cuffd stopped): the central row takes the new revision.
            #expect(try await stack.stopDaemon() == 0)
            _ = try HealthStore.open(path: stack.storePath).saveBloodPressure(syntheticReading(0, revision: 1), as: .daemon())
            try await stack.startDaemon()
            try await forwarding.waitUntilCentralMatchesGateway()
            #expect(try await forwarding.query("SELECT sync_version, systolic FROM readings WHERE sync_identifier = 'C4F312FFFE53F2C9-1-0'") == ["1|150"])
        }
    }

    @Test("Two gateways on one server: a row of the other is invisible to UPDATE and refused to INSERT and upsert; a forwarder claiming the other's name exits 77; nothing changes")
    func rowSecurity() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.migratedAndGranted(teardown)
            #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
            try forwarding.startForwarder()
            try await forwarding.waitUntilCentralMatchesGateway()
            // The second gateway's role, registered by the administrator (docs/forwarding.md, "Setting it up").
            try await forwarding.register(role: "gateway2", gatewayName: "ward4")
            let second = (name: "gateway2", password: forwarding.gatewayPassword)
            let before = try await forwarding.query("SELECT sync_identifier, sync_version, gateway, systolic, deleted_at FROM readings ORDER BY 1")
            let someone = try #require(before.first?.split(separator: "|").first)

            #expect(try await forwarding.query("SELECT count(*) FROM readings", as: second) == ["0"])
            let updated = try await forwarding.query(
                "WITH changed AS (UPDATE readings SET systolic = 1 RETURNING 1) SELECT count(*) FROM changed", as: second)
            #expect(updated == ["0"])
            let row = "(sync_identifier, sync_version, gateway, systolic, diastolic, unit, measured_at)"
            for sql in [
                "INSERT INTO readings \(row) VALUES ('forged', 0, 'ward3', 1, 1, 'mmHg', now())",
                "INSERT INTO readings \(row) VALUES ('\(someone)', 9, 'ward4', 1, 1, 'mmHg', now()) "
                    + "ON CONFLICT (sync_identifier) DO UPDATE SET systolic = excluded.systolic, sync_version = excluded.sync_version",
            ] {
                await #expect { _ = try await forwarding.query(sql, as: second) } throws: { "\($0)".contains("row-level security") }
            }
            // cuff-forward logging in as gateway2 but configured as ward3.
            try forwarding.writeConfiguration(url: forwarding.url(role: "gateway2"), sslMode: "disable")
            let claimed = try await forwarding.runForwarder(["--config", forwarding.configurationPath])
            #expect(claimed.status == 77 && claimed.standardError.contains("belongs to role gateway1"), "\(claimed.standardError)")
            #expect(try await forwarding.query("SELECT sync_identifier, sync_version, gateway, systolic, deleted_at FROM readings ORDER BY 1") == before)
        }
    }

    @Test("Two gateways forwarding into one server at once, one's sessions ended and the other SIGKILLed mid-backlog: each ends with exactly its own rows, and neither role sees or updates the other's")
    func twoGatewaysAtOnce() async throws {
        try await withTeardown { teardown in
            // Each its own cuffd, store (a backlog of a synthetic cuff of its own, so that sync identifiers differ),
            // bus, cuff, role and state folder; one server.
            let first = try await Self.migratedAndGranted(teardown, backlog: 2_000)
            let second = try await ForwardingStack.make(scenario: "one-cuff.json", joining: first, role: "gateway2", gatewayName: "ward4")
            try await Self.started(second, backlog: 2_000, cuff: syntheticCuff(1))
            try first.startForwarder()
            try second.startForwarder()
            // Faults 10–60 ms apart while both catch up: the first's sessions ended by the server, the second killed.
            try await Self.faults(10, apart: 10...60, ending: first, killing: second)
            // Then each gateway's cuff: readings stored while the other forwards.
            async let firstPaired = first.stack.cuffctl(["pair", Self.cuff])
            async let secondPaired = second.stack.cuffctl(["pair", "C4:F3:12:53:F2:C9"])
            #expect(try await (firstPaired.status, secondPaired.status) == (0, 0))
            try await first.waitUntilCentralMatchesGateway(within: .seconds(180))
            try await second.waitUntilCentralMatchesGateway(within: .seconds(180))
            let total = try await first.gatewayReadings().count + second.gatewayReadings().count
            #expect(try await first.query("SELECT count(*), count(DISTINCT sync_identifier) FROM readings") == ["\(total)|\(total)"])

            // Each role sees only its own gateway's rows, and an update of the other's touches none.
            for (mine, theirs) in [(first, second), (second, first)] {
                #expect(try await mine.query("SELECT DISTINCT gateway FROM readings", as: mine.account) == [mine.gatewayName])
                let updated = try await mine.query(
                    "WITH changed AS (UPDATE readings SET systolic = 1 WHERE gateway = '\(theirs.gatewayName)' RETURNING 1) SELECT count(*) FROM changed",
                    as: mine.account)
                #expect(updated == ["0"])
            }
            try await first.waitUntilCentralMatchesGateway()
            try await second.waitUntilCentralMatchesGateway()
        }
    }

    @Test("A cuff read by two gateways: the second finds its readings central already — one deleted there, one it revised — keeps them as the first sent them, counts them, and forwards its own")
    func cuffOnTwoGateways() async throws {
        try await withTeardown { teardown in
            // The first gateway forwards six readings of a cuff, then deletes the oldest: a tombstone, which an upsert
            // of its revision would bring back.
            let first = try await Self.migratedAndGranted(teardown, backlog: 6)
            try first.startForwarder()
            try await first.waitUntilCentralMatchesGateway()
            #expect(try await first.stack.stopDaemon() == 0)
            let tombstone = try Self.deleteOneReading(store: first.stack.storePath)
            try await first.stack.startDaemon()
            try await first.waitUntilCentralMatchesGateway()
            let firstRows = "SELECT sync_identifier, sync_version, gateway, systolic, deleted_at, received_at FROM readings WHERE gateway = 'ward3' ORDER BY 1"
            let before = try await first.query(firstRows)
            let tombstoned = "SELECT deleted_at IS NOT NULL FROM readings WHERE sync_identifier = '\(tombstone)'"
            #expect(try await first.query(tombstoned) == ["t"] && before.count == 6)

            // The cuff moved to a second gateway: the same six readings, one of them then revised there, beside five of
            // another cuff of its own.
            let second = try await ForwardingStack.make(scenario: "stored-records.json", joining: first, role: "gateway2", gatewayName: "ward4")
            try makeStore(second.stack.storePath, count: 6)
            try makeStore(second.stack.storePath, count: 5, device: syntheticCuff(1))
            _ = try HealthStore.open(path: second.stack.storePath).saveBloodPressure(syntheticReading(1, revision: 1), as: .daemon())
            try await Self.started(second, backlog: 0)
            let shared = Set((0..<6).map { syntheticReading($0).syncIdentifier })

            try second.startForwarder()
            try await second.waitUntilCentralMatchesGateway(except: shared)
            #expect(try await second.centralReadings().count == 5)
            #expect(try await first.query(firstRows) == before, "the first gateway's rows changed")
            try await second.stack.wait(for: "6 of them another gateway had forwarded first", in: "forward.log")
            let status = try await second.forwardStatus()
            #expect(status["othersReadings"] as? Int == 6 && status["state"] as? String == "forwarding" && status["lastError"] is NSNull, "\(status)")
            #expect(second.forwarder?.isRunning == true)
        }
    }

    @Test(
        "Both sinks: the MQTT broker down holds back nothing of PostgreSQL's; back, it catches up to the same anchor, its own",
        .enabled(if: MosquittoBroker.available, "needs Debian's mosquitto and mosquitto-clients (scripts/install-deps)"))
    func bothSinks() async throws {
        try await withTeardown { teardown in
            let forwarding = try await Self.migratedAndGranted(teardown)
            let stack = forwarding.stack
            let broker = try await offCooperativePool { try MosquittoBroker() }
            teardown.add { broker.remove() }
            try forwarding.writeConfiguration(url: forwarding.socketURL, sslMode: "disable", more: "[MQTT]\nURL=mqtt://127.0.0.1:\(broker.port)\n")
            try await offCooperativePool { broker.stop() }
            try forwarding.startForwarder()
            #expect(try await stack.cuffctl(["pair", Self.cuff]).status == 0)
            try await forwarding.waitUntilCentralMatchesGateway()
            try await stack.wait(for: "the MQTT broker is unreachable", in: "forward.log")
            let mqttAnchor = forwarding.directory.appendingPathComponent("state/mqtt/anchor").path
            #expect(!FileManager.default.fileExists(atPath: mqttAnchor), "the MQTT anchor moved while the broker was down")

            try await offCooperativePool { try broker.start() }
            let anchors = { [mqttAnchor, forwarding.anchorPath].map { try? String(contentsOfFile: $0, encoding: .utf8) } }
            try await FolderWatch.wait(
                "the MQTT anchor caught up with PostgreSQL's", in: [forwarding.anchorPath, mqttAnchor].map { ($0 as NSString).deletingLastPathComponent },
                detail: "\(anchors())"
            ) { anchors()[0] != nil && anchors()[0] == anchors()[1] }
            // The retained state is handed at once on subscription; -W only bounds a hang.
            let state = try await offCooperativePool {
                try ExternalCommand.run("mosquitto_sub", broker.clientOptions + ["-C", "1", "-W", "60", "-t", "cuffd/+/+/state"])
            }
            #expect(state.standardOutput.contains("\"sync_identifier\""), "no retained state: \(state.standardError)")
        }
    }

    /// The first gateway: cuffd running over stored-records.json (on a store of `backlog` synthetic readings), nobody
    /// granted read access, and the central schema migrated.
    static func migratedAndGranted(_ teardown: Teardown, backlog: Int = 0) async throws -> ForwardingStack {
        let forwarding = try await ForwardingStack.make(scenario: "stored-records.json")
        teardown.add { forwarding.server.remove() }
        try await started(forwarding, backlog: backlog)
        let migrate = try await forwarding.runForwarder(["--config", forwarding.configurationPath, "--migrate"])
        #expect(migrate.status == 0, "\(migrate.standardError)")
        return forwarding
    }

    /// ``migratedAndGranted(_:backlog:)``, the cuff paired, cuff-forward started and caught up with it.
    static func pairedAndForwarded(_ teardown: Teardown) async throws -> ForwardingStack {
        let forwarding = try await migratedAndGranted(teardown)
        #expect(try await forwarding.stack.cuffctl(["pair", Self.cuff]).status == 0)
        try forwarding.startForwarder()
        try await forwarding.waitUntilCentralMatchesGateway()
        return forwarding
    }

    /// cuffd started on a store of `backlog` synthetic readings of `cuff`, and nobody granted read access to it.
    static func started(_ forwarding: ForwardingStack, backlog: Int, cuff: HealthDevice = syntheticDevice) async throws {
        if backlog > 0 { try makeStore(forwarding.stack.storePath, count: backlog, device: cuff) }
        try await forwarding.stack.startDaemon()
        #expect(try await forwarding.stack.cuffctl(["grant", "\(PostgresServer.account.uid)", "bloodPressure", "read"]).status == 0)
    }

    /// `count` faults at random moments `apart` milliseconds apart, alternately: `ending`'s sessions ended by the server
    /// (`pg_terminate_backend`), and `killing`'s forwarder SIGKILLed and started again (logging to `forward-N.log`).
    static func faults(_ count: Int, apart: ClosedRange<Int>, ending: ForwardingStack, killing: ForwardingStack) async throws {
        for trial in 0..<count {
            // The moments of the faults are the test's random input, not a wait for anything.
            try await Task.sleep(for: .milliseconds(Int.random(in: apart)))
            if trial.isMultiple(of: 2) {
                _ = try await ending.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(ending.role)'")
            } else {
                try await killing.killForwarder()
                try killing.startForwarder(log: "forward-\(trial).log")
            }
        }
    }

    /// Deletes the first blood-pressure reading in `sort`'s order (the oldest by default) from a store no daemon has
    /// open; returns its sync identifier.
    static func deleteOneReading(store path: String, sort: SampleSort = .startDateAscending) throws -> String {
        let store = try HealthStore.open(path: path)
        let readings = try store.correlations(CorrelationQuery(type: .bloodPressure, sort: sort, limit: 1), as: .daemon())
        let reading = try #require(readings.first)
        // The count is of the types the deletion touched: the correlation, its members and its pulse.
        #expect(try store.delete([reading.uuid], as: .daemon()) >= 1)
        return try #require(reading.metadata.syncIdentifier)
    }
}
