import BlueZ
import DBus
import Foundation
import Gateway
import HealthStore
import PropertyBased
import ReadingQueries
import Testing
@testable import Daemon

/// What the control API accepts from the bus (docs/dbus-api.md): every value checked where it enters, so
/// that nothing a caller sends can trap in cuffd or make it hold more than one page of readings.
@Suite("Control API arguments")
struct ControlArgumentTests {
    static func filter(_ entries: [String: DBusValue]) throws -> ReadingFilter {
        try ReadingFilter(entries.mapValues { DBusVariant($0) })
    }

    static func expectInvalid(_ entries: [String: DBusValue], sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try filter(entries)
            Issue.record("\(entries) was accepted", sourceLocation: sourceLocation)
        } catch ControlError.invalidArguments {
        } catch {
            Issue.record("\(entries) failed with \(error), not InvalidArguments", sourceLocation: sourceLocation)
        }
    }

    @Test("since and until outside the years 1–9999 are InvalidArguments", arguments: [Double.nan, .infinity, -.infinity, 9.3e12, -9.3e12, 253_402_300_800])
    func unsupportedTimes(_ seconds: Double) {
        Self.expectInvalid(["since": .double(seconds)])
        Self.expectInvalid(["until": .double(seconds)])
    }

    @Test("limit is 1 to 1000, 100 when not given; cursors must be a reading's")
    func limitsAndCursors() throws {
        #expect(try Self.filter([:]).limit == ReadingFilter.defaultLimit)
        #expect(try Self.filter(["limit": .uint32(1000)]).limit == 1000)
        Self.expectInvalid(["limit": .uint32(0)])
        Self.expectInvalid(["limit": .uint32(1001)])
        Self.expectInvalid(["limit": .int32(5)])
        Self.expectInvalid(["before": .string("yesterday")])
        Self.expectInvalid(["after": .string("99999999999999999999:0")])
        Self.expectInvalid(["cursor": .string("")])
        let position = SamplePosition(startDate: Date(timeIntervalSince1970: 1_773_000_000.25), uuid: UUID())
        let page = try Self.filter(["after": .string(ReadingCursor.text(position))]).page
        #expect(page == .oldest(after: position, before: nil))
        #expect(try Self.filter(["after": .string("")]).page == .oldest(after: nil, before: nil))
    }

    @Test("A cursor is the time in microseconds and the UUID as uuidString writes it, and names its reading's place again")
    func cursorText() {
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for (index, uuid) in (edges + (0 ..< 200).map { _ in UUID() }).enumerated() {
            let position = SamplePosition(startDate: Date(timeIntervalSince1970: 1_773_000_000.25 + Double(index)), uuid: uuid)
            let text = ReadingCursor.text(position)
            #expect(text == "\(1_773_000_000_250_000 + index * 1_000_000):\(uuid.uuidString)")
            #expect(ReadingCursor.position(text) == position)
        }
    }

    @Test("Grant's access words: read, share or both, each once")
    func accessWords() throws {
        #expect(try ControlAPI.access(parsing: "read,share") == (read: true, share: true))
        #expect(try ControlAPI.access(parsing: "") == (read: false, share: false))
        for bad in ["read,read,share,", "read,", ",share", "write", "read, share", "read,read"] {
            #expect(throws: ControlError.self, "\(bad)") { try ControlAPI.access(parsing: bad) }
        }
    }

    @Test("A person a grant names is a name as cuffd.conf gives it: not empty, at most 256 bytes, no control characters")
    func personNames() throws {
        for good in ["alice", "Zoë", String(repeating: "é", count: 128)] { try ControlAPI.check(person: good) }
        for bad in ["", String(repeating: "a", count: 257), "ali\nce", "\u{1B}[31m", "bob\u{7F}"] {
            #expect(throws: ControlError.self, "\(bad.debugDescription)") { try ControlAPI.check(person: bad) }
        }
    }

    @Test("The store's authorization failures are NotAuthorized, not usage errors")
    func authorizationFailures() {
        for error in [HealthStoreError.notAdministrator(uid: 1000), .authorizationDenied(type: "heartRate"), .authorizationNotDetermined(type: "heartRate")] {
            #expect(ControlError.from(error).dbusError.name == "org.cuffd.Error.NotAuthorized")
        }
        #expect(ControlError.from(.unsupportedDate(.nan)).dbusError.name == "org.cuffd.Error.InvalidArguments")
    }

    @Test("A cuff that takes no pairing key is PairingRefused (cuffctl's exit 76), a busy gateway Failed")
    func gatewayRefusals() throws {
        let address = try #require(BluetoothAddress("28:FF:B2:10:4C:31"))
        let refused = ControlError.from(GatewayError.refused(address, "the cuff is not in pairing mode")).dbusError
        #expect(refused.name == "org.cuffd.Error.PairingRefused" && refused.description.contains("not in pairing mode"))
        #expect(ControlError.from(GatewayError.busy("a pairing is already running")).dbusError.name == "org.cuffd.Error.Failed")
    }

    /// Any double: raw bit patterns (NaN and infinities among them), the special values, and numbers around
    /// and inside the supported range.
    static let anyDouble = Gen.uint64().map { bits -> Double in
        let specials: [Double] = [.nan, .infinity, -.infinity, -0.0, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        switch bits % 4 {
        case 0: return Double(bitPattern: bits)
        case 1: return specials[Int(bits / 4 % UInt64(specials.count))]
        case 2: return Double(Int64(bitPattern: bits) % 10_000_000_000_000)
        default: return Double(bits % 300_000_000_000) - 62_000_000_000
        }
    }

    @Test("Random filters: refused as InvalidArguments or answered by the store, never a trap")
    func randomFilters() async throws {
        let store = try HealthStore.inMemory()
        await propertyCheck(count: 400, input: Self.anyDouble, Self.anyDouble, Gen.uint32(), Gen.uint8()) { since, until, limit, user in
            let entries: [String: DBusValue] = ["since": .double(since), "until": .double(until), "limit": .uint32(limit), "user": .byte(user)]
            do {
                let filter = try Self.filter(entries)
                _ = try filter.readings(in: store, as: .daemon())
                _ = try store.statistics(of: .bloodPressureSystolic, predicate: filter.predicate, options: .discrete, as: .daemon())
            } catch ControlError.invalidArguments {
                #expect(!(since.isFinite && until.isFinite && (1...1000).contains(limit) && abs(since) < 6e10 && abs(until) < 6e10))
            }
        }
    }
}
