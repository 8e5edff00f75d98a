import INIConfiguration

/// A secret kept in a file — forward.conf's `PasswordFile=`, or a systemd credential (`LoadCredential=`) —, never on
/// the command line or in the environment, which other processes read through `/proc`. Read at each connection, so
/// that a rotated password is picked up without a restart.
enum PasswordFile {
    /// The file's first line.
    static func read(_ path: String) throws(ConfigurationError) -> String {
        do {
            return String(try TextFile.read(path).prefix { !$0.isNewline })
        } catch {
            throw ConfigurationError(file: path, line: 0, message: "the password cannot be read: \(error.reason)")
        }
    }
}
