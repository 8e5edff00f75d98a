import Foundation
import GRDB
import Testing
@testable import HealthStore

/// What a store path may name (docs/health-store.md, "The store file"): each refusal leaves its target exactly as
/// it was — bytes, mode and all.
@Suite("The store file")
struct StoreFileSafetyTests {
    struct Snapshot: Equatable {
        let mode: Int?
        let bytes: Data?

        init(_ path: String) {
            mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
            bytes = FileManager.default.contents(atPath: path)
        }
    }

    /// A store at `path`, closed again when this returns (its pool's last connection checkpoints the WAL).
    static func create(_ path: String) throws {
        _ = try HealthStore.open(path: path)
    }

    static func expectRefused(_ path: String, saying reason: String, untouched target: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        let target = target ?? path
        let before = Snapshot(target)
        do {
            _ = try HealthStore.open(path: path)
            Issue.record("\(path) was opened", sourceLocation: sourceLocation)
        } catch HealthStoreError.notAStore(_, let said) {
            #expect(said.contains(reason), "\(said)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("refused with \(error)", sourceLocation: sourceLocation)
        }
        #expect(Snapshot(target) == before, "\(target) changed", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: target + "-wal"), sourceLocation: sourceLocation)
    }

    @Test("A symbolic link is refused, and the file it names keeps its mode and bytes")
    func symbolicLink() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("notes.txt").path
        FileManager.default.createFile(atPath: target, contents: Data("mine".utf8), attributes: [.posixPermissions: 0o644])
        let link = directory.appendingPathComponent("health.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        Self.expectRefused(link, saying: "a symbolic link", untouched: target)
    }

    @Test("A device and a directory are refused; /dev/null keeps its mode")
    func notRegularFiles() throws {
        Self.expectRefused("/dev/null", saying: "a character device")
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        Self.expectRefused(directory.path, saying: "a directory")
    }

    @Test("Another application's SQLite database, or one with another application ID, gets no schema of ours")
    func foreignDatabases() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let foreign = directory.appendingPathComponent("app.sqlite").path
        try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE contacts (name TEXT)") }
        Self.expectRefused(foreign, saying: "the tables contacts")
        let other = directory.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: other).write { try $0.execute(sql: "PRAGMA application_id = 1234") }
        Self.expectRefused(other, saying: "application ID is 0x4d2")
        let text = directory.appendingPathComponent("text.sqlite").path
        FileManager.default.createFile(atPath: text, contents: Data(String(repeating: "not a database ", count: 100).utf8))
        Self.expectRefused(text, saying: "not an SQLite database")
    }

    @Test("A new store is created 0600 with cuffd's application ID; an existing store keeps the mode it has")
    func modesAndIdentity() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("health.sqlite").path
        _ = try HealthStore.open(path: path).saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
        #expect(Snapshot(path).mode == 0o600)
        #expect(try DatabaseQueue(path: path).read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == SQLiteStoreFile.applicationID)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        #expect(try HealthStore.open(path: path).correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).count == 1)
        #expect(Snapshot(path).mode == 0o640)
    }

    @Test("A store from before the application ID is recognized by its tables and given the ID, its readings kept")
    func storeFromBeforeTheApplicationID() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("health.sqlite").path
        _ = try HealthStore.open(path: path).saveBloodPressure(Fixture.reading(), as: Fixture.daemon)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "PRAGMA application_id = 0; DELETE FROM grdb_migrations WHERE identifier = 'v4-application-id'")
        }
        let reopened = try HealthStore.open(path: path)
        #expect(try reopened.correlations(CorrelationQuery(type: .bloodPressure), as: Fixture.daemon).count == 1)
        #expect(try DatabaseQueue(path: path).read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == SQLiteStoreFile.applicationID)
    }

    @Test("A store written by a newer build is refused naming its release, its schema and ours, and left as it is")
    func newerStore() throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("health.sqlite").path
        var configuration = StoreConfiguration()
        configuration.sourceVersion = "9.1"
        _ = try HealthStore.open(path: path, configuration: configuration)
        let newer = try DatabaseQueue(path: path)
        try newer.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-from-the-future')") }
        try newer.close()
        let before = Snapshot(path)
        #expect {
            _ = try HealthStore.open(path: path)
        } throws: { error in
            guard case HealthStoreError.unsupportedSchema(let message) = error else { return false }
            return message.contains("written by cuffd 9.1") && message.contains("v9-from-the-future") && message.contains("v13-heart-rate-series")
        }
        #expect(Snapshot(path) == before)
    }
}
