import INIConfiguration

/// A secret kept in a file — forward.conf's `PasswordFile=` or `[HTTP] HMACKeyFile=`, or a systemd credential
/// (`LoadCredential=`) —, never on
/// the command line or in the environment, which other processes read through `/proc`. Read at each connection, so
/// that a rotated password is picked up without a restart; one that cannot be read is refused at the line of
/// forward.conf that names it (exit 78).
public struct PasswordFile: Sendable, Equatable {
    public let path: String
    /// forward.conf, and the key and line that name the file.
    private let file: String
    private let key: String
    let line: Int

    /// The file `key` (`PasswordFile=` unless said) of `reader`'s section names; nil when it has none.
    init?(_ reader: SectionReader, key: String = "PasswordFile") throws(ConfigurationError) {
        guard let path = try reader.path(key), let entry = reader.entry(key) else { return nil }
        self.path = path
        file = reader.file
        self.key = key
        line = entry.line
    }

    /// The file's first line.
    func read() throws(ConfigurationError) -> String {
        do {
            return String(try TextFile.read(path).prefix { !$0.isNewline })
        } catch {
            throw ConfigurationError(file: file, line: line, message: "\(key)=\(path) cannot be read: \(error.reason)")
        }
    }
}
