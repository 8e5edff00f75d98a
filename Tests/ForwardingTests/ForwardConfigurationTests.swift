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
        #expect(both.postgreSQL?.passwordFile == "/run/pw")
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
            ("[Forward]\nGateway=a\n", 0, "add a [PostgreSQL] section, an [MQTT] section, or both"),
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
