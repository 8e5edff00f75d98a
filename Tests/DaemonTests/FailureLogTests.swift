import BlueZ
import DBus
import Foundation
import GATTHealth
import Gateway
import Logging
import Synchronization
import Testing
@testable import Daemon

/// A store that refuses every reading, as a full disk does.
struct RefusingStore: ReadingStore {
    struct DiskFull: Error, CustomStringConvertible { var description: String { "disk full: nothing was written" } }
    func commit(_ reading: Reading) async throws -> CommitOutcome { throw DiskFull() }
    func commit(heartRates samples: [HeartRateSample]) async throws -> Int { throw DiskFull() }
}

/// A bus connection whose signals cannot be made (libdbus out of memory), or one that records what it sent.
final class TestEmitter: SignalEmitter, Sendable {
    let failure: DBusError?
    let sent = Mutex<[String]>([])

    init(failing failure: DBusError? = nil) { self.failure = failure }

    func emitSignal(_ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue]) throws(DBusError) {
        if let failure { throw failure }
        sent.withLock { $0.append(([path.text, "\(interface).\(member)"] + arguments.map(\.description)).joined(separator: " ")) }
    }
}

/// Failures the journal must tell, once and with their cause, where cuffd would otherwise go on as if all were well.
@Suite("Failures in the journal")
struct FailureLogTests {
    @Test("A full spool: the reading's entry gives the spool's error and the reading's bytes; the store's refusal does not say it waits in the spool")
    func fullSpool() async throws {
        let path = SpoolFileTests().temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let spool = try SpoolFile(path: path, logger: Logger(label: "test"))
        for n in 0 ..< SpoolFile.slotCount { try await spool.keep(SpoolFileTests.reading(100, sequence: UInt16(n))) }
        let session = CuffSession(
            device: DeviceIdentity(address: GatewayLogTests.cuff), users: UserDirectory(), store: RefusingStore(), spool: spool,
            retry: RetryBackoff(first: .seconds(3600)))
        let bytes = BloodPressureMeasurement(
            systolic: MedFloat16(mantissa: 131, exponent: 0)!, diastolic: MedFloat16(mantissa: 84, exponent: 0)!,
            meanArterialPressure: MedFloat16(mantissa: 100, exponent: 0)!
        ).encoded()
        let produced = await session.handle(.value(.bloodPressureMeasurement, bytes, receivedAt: Date()))
        let captured = CapturedLog()
        let log = GatewayLog(detail: .readings, logger: Logger(label: "test") { _ in captured })
        for event in produced { log.log(.session(GatewayLogTests.cuff, event)) }

        let entries = captured.entries
        #expect(entries.count == 2, "\(entries.map(\.message))")
        #expect(entries.first?.message == "The store refuses readings (disk full: nothing was written); 1 from \(GatewayLogTests.cuff) wait for it and are retried with backoff")
        let spooled = try #require(entries.last)
        #expect(spooled.level == .error)
        #expect(spooled.message.hasSuffix("in memory only, lost if cuffd stops before the store takes it: the spool cannot keep it (the spool's 512 slots are in use)"))
        #expect(spooled.metadata["BP_PAYLOAD"] == "\(Hex.bytes(bytes))")
        #expect(spooled.metadata["BP_SYNC_IDENTIFIER"] == "\(await session.pending.first?.syncIdentifier ?? "none")")
        #expect(!entries.contains { $0.message.contains("in the spool") })
    }

    @Test("A spool slot that cannot be freed is logged with its cause and the reading; the reading stays on disk for the next start")
    func releaseFailure() async throws {
        let path = SpoolFileTests().temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let captured = CapturedLog()
        let spool = try SpoolFile(path: path, logger: Logger(label: "test") { _ in captured })
        let reading = SpoolFileTests.reading(121)
        try await spool.keep(reading)
        // The spool's descriptor swapped for a read-only one of the same file: its writes fail now (EBADF).
        let readOnly = open(path, O_RDONLY | O_CLOEXEC)
        #expect(dup2(readOnly, spool.descriptor) == spool.descriptor)
        close(readOnly)
        await spool.release(reading.syncIdentifier)
        #expect(captured.entries.count == 1)
        let entry = try #require(captured.entries.first)
        #expect(entry.level == .error)
        #expect(entry.message.contains("writing the spool failed: Bad file descriptor"), "\(entry.message)")
        #expect(entry.metadata["BP_SYNC_IDENTIFIER"] == "\(reading.syncIdentifier)")
        #expect(try await SpoolFile(path: path, logger: Logger(label: "test")).kept() == [reading])
    }

    @Test("A signal that cannot be sent is logged with its cause and what its listeners miss; one that is sent is not")
    func signalFailure() throws {
        let captured = CapturedLog()
        let failing = GatewaySignals(
            emitter: TestEmitter(failing: DBusError(.noMemory, "out of memory creating a message")), logger: Logger(label: "test") { _ in captured })
        failing.readingStored(GatewayLogTests.cuff)
        #expect(captured.entries.count == 1)
        let entry = try #require(captured.entries.first)
        #expect(entry.level == .error)
        #expect(entry.message.hasPrefix("Could not send the ReadingStored signal for \(GatewayLogTests.cuff) ("))
        #expect(entry.message.contains("out of memory creating a message"))
        #expect(entry.message.hasSuffix("cuff-forward and `cuffctl readings --follow` learn of the reading only with the next one"))

        let quiet = CapturedLog()
        let emitter = TestEmitter()
        let signals = GatewaySignals(emitter: emitter, logger: Logger(label: "test") { _ in quiet })
        signals.readingStored(GatewayLogTests.cuff)
        signals.passkeyRequested(GatewayLogTests.cuff)
        #expect(quiet.entries.isEmpty)
        #expect(emitter.sent.withLock { $0 } == [
            "/org/cuffd/Gateway1 org.cuffd.Gateway1.ReadingStored /org/cuffd/Gateway1/cuff_C4F31253F2C9",
            "/org/cuffd/Gateway1 org.cuffd.Gateway1.PasskeyRequested \"C4:F3:12:53:F2:C9\"",
        ])
    }
}
