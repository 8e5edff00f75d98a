import Forwarding
import INIConfiguration
import Testing

@Suite("forward.conf")
struct ForwardConfigurationTests {
    static let minimal = """
        [Forward]
        Gateway=ward3
        [PostgreSQL]
        URL=postgresql://gateway1@db.example.org:5432/health
        """

    @Test("A minimal file: the defaults, and verify-full when neither SSLMode= nor the URL says otherwise")
    func defaults() throws {
        let configuration = try ForwardConfiguration(parsing: Self.minimal, file: "forward.conf")
        #expect(configuration.gateway == "ward3")
        #expect(configuration.statePath == "/var/lib/cuff-forward/anchor")
        #expect(configuration.postgreSQL?.passwordFile == nil)
        #expect(configuration.postgreSQL?.sslMode == .verifyFull)
        #expect(configuration.mqtt == nil)
    }

    @Test("SSLMode= wins over the URL's sslmode, which wins over the default")
    func sslMode() throws {
        let fromURL = try ForwardConfiguration(parsing: Self.minimal + "?sslmode=disable", file: "forward.conf")
        #expect(fromURL.postgreSQL?.sslMode == .disable)
        let both = try ForwardConfiguration(parsing: Self.minimal + "?sslmode=disable\nSSLMode=require\nPasswordFile=/run/pw", file: "forward.conf")
        #expect(both.postgreSQL?.sslMode == .require)
        #expect(both.postgreSQL?.passwordFile?.path == "/run/pw")
    }

    @Test("What libpq and the rules accept: a list of hosts with a port each or the default, sslcert and sslkey; a Gateway= of 64 bytes, spaces and letters beyond ASCII")
    func accepted() throws {
        let url = "postgresql://db1:5432,db2/health?sslcert=/etc/cuffd/pg.crt&sslkey=/run/credentials/cuff-forward.service/pgkey"
        #expect(try ForwardConfiguration(parsing: "[Forward]\nGateway=a\n[PostgreSQL]\nURL=\(url)\n", file: "forward.conf").postgreSQL?.url == url)
        #expect(try ForwardConfiguration(parsing: "[PostgreSQL]\nURL=postgresql://db:65535/x?port=1\n[Forward]\nGateway=a\n", file: "f").postgreSQL != nil)
        for name in [String(repeating: "w", count: 64), "Station Süd, Zimmer 12", String(repeating: "ü", count: 32)] {
            #expect(try ForwardConfiguration(parsing: "[Forward]\nGateway=\(name)\n[MQTT]\nURL=mqtt://b\n", file: "f").gateway == name)
        }
    }

    @Test(
        "A mistake names its line",
        arguments: [
            ("[Forward]\nGateway=a\nColour=red\n", 3, "unknown key \"Colour\""),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=http://db/health\n", 4, "postgresql:// connection URI"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?colour=red\n", 4, "URL: invalid URI query parameter"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://u:secret@db/x\n", 4, "must not hold the password"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?gssencmode=require\n", 4, "GSSAPI encryption (gssencmode=require)"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x\nSSLMode=maybe\n", 5, "SSLMode must be one of"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x\nPasswordFile=pw\n", 5, "absolute path"),
            ("[Forward]\nGateway=a\n[Postgres]\n", 3, "unknown section [Postgres]"),
            ("[PostgreSQL]\nURL=postgresql://db/x\n", 0, "needs Gateway="),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nSSLMode=disable\n", 3, "needs URL="),
            ("[Forward]\nGateway=a\n", 0, "add a [PostgreSQL], an [MQTT] or an [HTTP] section"),
            // Ports libpq would refuse only when connecting, in each place a URI can give one.
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db:99999999999/x\n", 4, "the port must be 1–65535, not \"99999999999\""),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db:0/x\n", 4, "the port must be 1–65535"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?port=65536\n", 4, "the port must be 1–65535"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db1:5432,db2:99999/x\n", 4, "the port must be 1–65535, not \"5432,99999\""),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?port=%2B5432\n", 4, "the port must be 1–65535"),
            // Secrets, or files and servers libpq would take them from, that forward.conf does not name.
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?passfile=/etc/pgpass\n", 4, "must not name a passfile"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?service=central\n", 4, "must not name a service"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?sslkey=/k.pem&sslpassword=secret\n", 4, "must not hold sslpassword"),
            ("[Forward]\nGateway=a\n[PostgreSQL]\nURL=postgresql://db/x?password=secret\n", 4, "must not hold the password"),
            // Gateway=: printable, and short.
            ("[Forward]\nGateway=ward\u{1B}[2J3\n", 2, "Gateway= must be printable; it holds U+001B"),
            ("[Forward]\nGateway=ward\t3\n", 2, "it holds U+0009"),
            ("[Forward]\nGateway=ward\u{202E}3drow\n", 2, "it holds U+202E"),
            ("[Forward]\nGateway=ward\u{0}3\n", 2, "it holds U+0000"),
            ("[Forward]\nGateway=\(String(repeating: "w", count: 1 << 20))\n", 2, "Gateway= must be at most 64 bytes, not 1048576"),
            ("[Forward]\nGateway=\(String(repeating: "ü", count: 33))\n", 2, "at most 64 bytes, not 66"),
        ])
    func refused(text: String, line: Int, fragment: String) {
        #expect {
            _ = try ForwardConfiguration(parsing: text, file: "forward.conf")
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == line && error.message.contains(fragment)
        }
    }
}
