import DBus
import Foundation
import INIConfiguration
import ReadingColumns
import Testing

@testable import Forwarding

/// The HTTP sink's bodies, signature and `[HTTP]` section (docs/forwarding.md, "The HTTP sink"); its POSTs against real
/// receivers are EndToEndTests' HTTPForwardingTests.
@Suite("HTTP sink: bodies, signature, [HTTP]")
struct HTTPSinkTests {
    /// A page of one reading (a revision, beside its old version's deletion) and one other reading's deletion.
    static func page() throws -> ChangePage {
        var reading = ReadingRecord(
            systolic: 128, diastolic: 82.5, meanArterialPressure: 97, pulseRate: 64, time: 1_700_000_000.25,
            device: ["address": "E8:2A:44:10:3C:5D", "name": "BP 7000"], userID: 1, person: "Ann Lee, Jr=1\nx", status: 4,
            syncIdentifier: "cuffd.bp:A", syncVersion: 2)
        reading.exclusionReason = "said \"cuff slipped\""
        var page = try ChangePage([
            "anchor": DBusVariant(UInt64(7)), "more": DBusVariant(false), "columns": DBusVariant(ReadingColumns.properties([reading])),
        ], kind: .readings)
        page.deleted = [("cuffd.bp:A", 1), ("cuffd.bp:B", 3)]
        return page
    }

    @Test("HMAC-SHA256 as RFC 4231 test case 2 gives it, as sha256=<lowercase hex>")
    func signature() {
        #expect(HMACSignature.value(of: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
            == "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("Line protocol: tags sorted and escaped (no line end gets through), floats and integers typed, excluded always written, nanoseconds; the revised reading's old version's deletion left out, another's a deletion point")
    func influx() throws {
        let text = String(decoding: InfluxLine.body(try Self.page(), gateway: "ward 3", now: 1_800_000_000), as: UTF8.self)
        #expect(text == """
            blood_pressure,device=E8:2A:44:10:3C:5D,gateway=ward\\ 3,person=Ann\\ Lee\\,\\ Jr\\=1\\ x,user_id=1 \
            systolic=128,diastolic=82.5,mean=97,pulse=64,status=4i,excluded="said \\"cuff slipped\\"",sync_identifier="cuffd.bp:A",sync_version=2i \
            1700000000250000000
            deletion,feed=blood_pressure,gateway=ward\\ 3,sync_identifier=cuffd.bp:B sync_version=3i 1800000000000000000

            """)
        #expect(InfluxLine.escaped("ends\\", also: ",=") == "ends\\\\")
        #expect(InfluxLine.string("a\nb\\") == "\"a b\\\\\"")
    }

    @Test("JSON lines: one object per line with gateway, sync identifier and version, type, device and the MQTT message as data; deletions as their own lines")
    func jsonLines() throws {
        let text = String(decoding: JSONLines.body(try Self.page(), gateway: "ward3"), as: UTF8.self)
        let lines = text.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(text.hasSuffix("\n") && lines.count == 3)
        #expect(lines[0]["type"] as? String == "reading" && lines[0]["gateway"] as? String == "ward3")
        #expect(lines[0]["sync_identifier"] as? String == "cuffd.bp:A" && lines[0]["sync_version"] as? Int == 2)
        #expect((lines[0]["device"] as? [String: String]) == ["address": "E8:2A:44:10:3C:5D", "name": "BP 7000"])
        #expect((lines[0]["data"] as? [String: Any])?["diastolic"] as? Double == 82.5)
        #expect(lines[1]["type"] as? String == "deletion" && lines[1]["feed"] as? String == "readings" && lines[1]["sync_version"] as? Int == 1)
        #expect(JSONLines.body(try Self.page(), gateway: "ward3") == JSONLines.body(try Self.page(), gateway: "ward3"), "a resend is the same bytes")
    }

    @Test("Heart-rate samples: points of heart_rate (energy an integer, RR intervals a string) and JSON lines of type heart_rate; their deletions name the feed")
    func heartRates() throws {
        let sample = HeartRateRecord(
            beatsPerMinute: 72, time: 1_700_000_001, sensorContact: "detected", energyExpended: 12, rrIntervals: [800, 790],
            device: ["address": "E8:3C:A1:07:6D:21"], person: "ann", syncIdentifier: "cuffd.hr:1", syncVersion: 1)
        var page = try ChangePage([
            "anchor": DBusVariant(UInt64(3)), "more": DBusVariant(false), "columns": DBusVariant(HeartRateColumns.properties([sample])),
        ], kind: .heartRates)
        page.deleted = [("cuffd.hr:0", 1)]
        #expect(String(decoding: InfluxLine.body(page, gateway: "ward3", now: 1_800_000_000), as: UTF8.self) == """
            heart_rate,device=E8:3C:A1:07:6D:21,gateway=ward3,person=ann \
            bpm=72,contact="detected",energy_expended=12i,rr_intervals="800,790",sync_identifier="cuffd.hr:1",sync_version=1i 1700000001000000000
            deletion,feed=heart_rate,gateway=ward3,sync_identifier=cuffd.hr:0 sync_version=1i 1800000000000000000

            """)
        let lines = String(decoding: JSONLines.body(page, gateway: "ward3"), as: UTF8.self).split(separator: "\n")
            .map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        #expect(lines.map { $0["type"] as? String } == ["heart_rate", "deletion"])
        #expect((lines[0]["data"] as? [String: Any])?["rr_intervals"] as? [Int] == [800, 790] && lines[0]["sync_version"] as? Int == 1)
        #expect(lines[1]["feed"] as? String == "heart_rates")
    }

    static func parse(_ http: String) throws -> ForwardConfiguration {
        try ForwardConfiguration(parsing: "[Forward]\nGateway=ward3\n[HTTP]\n" + http, file: "forward.conf")
    }

    @Test("[HTTP] alone is a configuration; the defaults: jsonl, 30 s, the anchor in http/ beside State=; influx needs no key")
    func defaults() throws {
        let key = FileManager.default.temporaryDirectory.appendingPathComponent("http-key-\(UUID().uuidString)").path
        try "secret\n".write(toFile: key, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: key) }
        let http = try #require(try Self.parse("URL=https://receiver.home.arpa/cuffd\nHMACKeyFile=\(key)\n").http)
        #expect(http.format == .jsonl && http.timeout == 30 && http.caFile == nil && http.statePath == "/var/lib/cuff-forward/http/anchor")
        #expect(try http.hmacKeyFile?.read() == "secret")
        let influx = try #require(try Self.parse("URL=http://127.0.0.1:8086/write?db=health\nFormat=influx\nTimeout=5\n").http)
        #expect(influx.format == .influx && influx.hmacKeyFile == nil && influx.timeout == 5)
    }

    @Test("Mistakes are refused at their line", arguments: [
        ("URL=ftp://x/\nFormat=influx\n", "forward.conf:4: URL must be http://HOST[:PORT]/PATH or https://…"),
        ("URL=https://user:pw@x/\nFormat=influx\n", "forward.conf:4: URL must not hold a user or password"),
        ("URL=http://x/write?db=h&u=me&p=secret\nFormat=influx\n", "forward.conf:4: URL must not hold a user or password"),
        ("URL=http://x:0/\nFormat=influx\n", "forward.conf:4: URL: the port must be 1–65535"),
        ("URL=http://x/\nFormat=csv\n", "forward.conf:5: Format must be jsonl or influx"),
        ("URL=http://x/\n", "forward.conf:3: [HTTP] with Format=jsonl needs HMACKeyFile="),
        ("URL=http://x/\nFormat=influx\nTimeout=0\n", "forward.conf:6: Timeout= must be whole seconds from 1 to 600"),
        ("URL=http://x/\nFormat=influx\nCAFile=/etc/ca.pem\n", "forward.conf:6: CAFile= needs an https:// URL (TLS)"),
        ("URL=http://x/\nHMACKeyFile=/nonexistent/key\n", "forward.conf:5: HMACKeyFile=/nonexistent/key cannot be read"),
        ("Format=influx\n", "forward.conf:3: [HTTP] needs URL="),
    ])
    func refused(_ http: String, _ message: String) {
        #expect { try Self.parse(http) } throws: { "\($0)".hasPrefix(message) }
    }
}
