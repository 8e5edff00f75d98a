import INIConfiguration

/// `[MQTT]`'s `CertificateFile=` and `KeyFile=` (docs/home-assistant.md, "Configuration"): the certificate cuff-forward
/// presents in the TLS handshake to a broker that asks for one (Mosquitto's `require_certificate`; RFC 8446 §4.4.2,
/// the client's Certificate message), handed to libmosquitto's `mosquitto_tls_set`.
///
/// Both or neither, with an `mqtts://` URL, each a PEM file cuff-forward can read when it starts — so that a mistake is
/// refused at its line (exit 78) instead of as a handshake the broker ends without saying why. The key must not be
/// encrypted: nobody is there to type its passphrase; it is protected by its file's mode or, better, loaded as a
/// systemd credential.
public struct ClientCertificate: Sendable, Equatable {
    /// The certificate, followed by any intermediate CA certificates the broker needs to chain it to its `cafile`.
    public var certificateFile: String
    /// The certificate's private key, unencrypted.
    public var keyFile: String

    /// The pair in `reader`'s section, nil when neither key is there.
    static func read(_ reader: SectionReader, usesTLS: Bool) throws(ConfigurationError) -> ClientCertificate? {
        let certificate = reader.entry("CertificateFile"), key = reader.entry("KeyFile")
        guard let given = [certificate, key].compactMap({ $0 }).min(by: { $0.line < $1.line }) else { return nil }
        guard usesTLS else { throw reader.fail(given.line, "\(given.key)= needs an mqtts:// URL (TLS)") }
        guard let certificate else { throw reader.fail(given.line, "KeyFile= needs CertificateFile=, the certificate the key belongs to") }
        guard let key else { throw reader.fail(given.line, "CertificateFile= needs KeyFile=, the certificate's private key") }
        let pair = ClientCertificate(certificateFile: try reader.path("CertificateFile")!, keyFile: try reader.path("KeyFile")!)
        let certificateText = try Self.contents(pair.certificateFile, of: certificate, reader)
        guard certificateText.contains("-----BEGIN CERTIFICATE-----") else {
            throw reader.fail(certificate.line, "CertificateFile=\(pair.certificateFile) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        let keyText = try Self.contents(pair.keyFile, of: key, reader)
        guard keyText.contains("PRIVATE KEY-----") else {
            throw reader.fail(key.line, "KeyFile=\(pair.keyFile) holds no PEM private key (-----BEGIN … PRIVATE KEY-----)")
        }
        // PKCS #8's "ENCRYPTED PRIVATE KEY", or OpenSSL's older "Proc-Type: 4,ENCRYPTED" header.
        guard !keyText.contains("ENCRYPTED") else {
            throw reader.fail(key.line, "KeyFile=\(pair.keyFile) is encrypted, and cuff-forward cannot ask for its passphrase: decrypt it (openssl pkey -in KEY -out KEY.plain) and protect it by its mode or as a systemd credential")
        }
        return pair
    }

    /// The file's text, or the line's refusal naming why it cannot be read.
    private static func contents(_ path: String, of entry: INIDocument.Entry, _ reader: SectionReader) throws(ConfigurationError) -> String {
        do {
            return try TextFile.read(path)
        } catch {
            throw reader.fail(entry.line, "\(entry.key)=\(path) cannot be read: \(error.reason)")
        }
    }
}
