import BlueZ
import Daemon
import Foundation
import GATTHealth
import Gateway
import Testing

@Suite("Configuration file")
struct ConfigurationTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd/cuffd.conf")

    @Test func theShippedFileIsTheDefaults() throws {
        let text = try String(contentsOf: Self.shipped, encoding: .utf8)
        #expect(try Configuration(parsing: text, file: "cuffd.conf") == Configuration())
    }

    @Test func everySetting() throws {
        let configuration = try Configuration(parsing: """
            # comment
            [Store]
            Path = /srv/health/cuffd.sqlite
            HeartRateFlushInterval = 5min
            [Bluetooth]
            Adapter=hci1
            [Clock]
            Sync=no
            [Journal]
            Detail=packets

            [Cuff c4:f3:12:53:f2:c9]
            Name=Hall cuff
            User0=alice
            User1=bob
            NoUser=alice
            Quirk=none
            [Cuff D0:1F:2A:00:00:85]
            Quirk=beurer-byte-swapped
            """, file: "cuffd.conf")
        #expect(configuration.storePath == "/srv/health/cuffd.sqlite")
        #expect(configuration.heartRateFlushInterval == 300)
        #expect(configuration.gatewayConfiguration.heartRateFlushInterval == .seconds(300))
        #expect(configuration.adapter == "hci1")
        #expect(configuration.clockSync == false)
        #expect(configuration.journalDetail == .packets)
        try #require(configuration.cuffs.count == 2)
        let hall = configuration.cuffs[0]
        #expect(hall.address == BluetoothAddress("C4:F3:12:53:F2:C9"))
        #expect(hall.name == "Hall cuff")
        #expect(hall.people == [0: "alice", 1: "bob"])
        #expect(hall.personWithoutUserID == "alice")
        #expect(hall.quirkOverride == Configuration.QuirkOverride.none)
        #expect(configuration.cuffs[1].quirkOverride == .quirk(.beurerByteSwapped))
    }

    @Test("CRLF line ends read as LF; an adapter by name or address")
    func windowsLineEndsAndAdapters() throws {
        let configuration = try Configuration(parsing: "[Store]\r\nPath=/var/lib/x.sqlite\r\nHeartRateFlushInterval=1\r\n[Bluetooth]\r\nAdapter=hci1\r\n", file: "cuffd.conf")
        #expect(configuration.heartRateFlushInterval == 1)
        #expect(try Configuration(parsing: "[Store]\nHeartRateFlushInterval=90s", file: "c").heartRateFlushInterval == 90)
        #expect(configuration.storePath == "/var/lib/x.sqlite")
        #expect(configuration.adapter == "hci1")
        #expect(try Configuration(parsing: "[Bluetooth]\nAdapter=00:1A:7D:DA:71:13", file: "c").adapter == "00:1A:7D:DA:71:13")
    }

    @Test(arguments: [
        ("[Store]\nPath=relative.sqlite", "cuffd.conf:2: Path must be an absolute path, not \"relative.sqlite\""),
        ("[Store]\n\nColour=blue", "cuffd.conf:3: unknown key \"Colour\" in [Store]; expected Path, HeartRateFlushInterval"),
        ("[Store]\nHeartRateFlushInterval=0", "cuffd.conf:2: HeartRateFlushInterval must be 1 to 900 seconds (like 60, 60s or 5min), not \"0\""),
        ("[Store]\nHeartRateFlushInterval=16min", "cuffd.conf:2: HeartRateFlushInterval must be 1 to 900 seconds (like 60, 60s or 5min), not \"16min\""),
        ("[Store]\nHeartRateFlushInterval=1h", "cuffd.conf:2: HeartRateFlushInterval must be 1 to 900 seconds (like 60, 60s or 5min), not \"1h\""),
        ("[Clock]\nSync=maybe", "cuffd.conf:2: Sync must be yes or no, not \"maybe\""),
        ("[Journal]\nDetail=all", "cuffd.conf:2: Detail must be one of readings, sessions, packets, not \"all\""),
        ("Path=/x", "cuffd.conf:1: \"Path=/x\" comes before any [Section]"),
        ("[Store\nPath=/x", "cuffd.conf:1: a section header is [Name]"),
        ("[Store]\nPath", "cuffd.conf:2: expected Key=Value, found \"Path\""),
        ("[Store]\n=/x", "cuffd.conf:2: a key is missing before \"=\""),
        ("[Stores]", "cuffd.conf:1: unknown section [Stores]; expected [Store], [Bluetooth], [Clock], [Journal] or [Cuff XX:XX:XX:XX:XX:XX]"),
        ("[Cuff C4:F3:12]", "cuffd.conf:1: \"C4:F3:12\" is not a Bluetooth address like C4:F3:12:53:F2:C9"),
        ("[Cuff C4:F3:12:53:F2:C9]\nUser255=eve", "cuffd.conf:2: \"User255\" is not User0 … User254 (255 is the cuff's unknown user)"),
        ("[Cuff C4:F3:12:53:F2:C9]\nUser1=", "cuffd.conf:2: User1 needs a person's name"),
        ("[Cuff C4:F3:12:53:F2:C9]\nQuirk=wobbly", "cuffd.conf:2: Quirk must be one of beurerByteSwapped, none, not \"wobbly\""),
        ("[Cuff C4:F3:12:53:F2:C9]\n[Cuff C4:F3:12:53:F2:C9]", "cuffd.conf:2: [Cuff C4:F3:12:53:F2:C9] appears twice"),
        ("[Clock]\nSync=yes\nSync=no", "cuffd.conf:3: \"Sync\" is set twice in [Clock]"),
        ("[Bluetooth]\nAdapter=wlan0", "cuffd.conf:2: Adapter must be an adapter like hci0 or an address like 00:1A:7D:DA:71:13, not \"wlan0\""),
        ("[Bluetooth]\nAdapter=hci", "cuffd.conf:2: Adapter must be an adapter like hci0 or an address like 00:1A:7D:DA:71:13, not \"hci\""),
        ("[Store]\r\nPath=/x\r\n[Clock]\r\nSync=maybe\r\n", "cuffd.conf:4: Sync must be yes or no, not \"maybe\""),
    ])
    func aBadFileNamesTheLine(_ text: String, _ expected: String) {
        do {
            _ = try Configuration(parsing: text, file: "cuffd.conf")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func usersMapToPeopleThroughTheDirectory() throws {
        let configuration = try Configuration(parsing: "[Cuff C4:F3:12:53:F2:C9]\nUser1=bob\nNoUser=alice", file: "c")
        let device = Gateway.DeviceIdentity(address: BluetoothAddress("C4:F3:12:53:F2:C9")!)
        #expect(configuration.userDirectory.person(for: 1, on: device) == "bob")
        #expect(configuration.userDirectory.person(for: nil, on: device) == "alice")
    }
}
