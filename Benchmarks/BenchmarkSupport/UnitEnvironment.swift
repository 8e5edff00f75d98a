import Foundation

/// The variables a unit in systemd/ gives its program (`Environment=NAME=VALUE` lines, systemd.exec(5); no quoting),
/// so that a benchmark runs the program as the unit does.
public func unitEnvironment(_ unit: String) throws -> [String: String] {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("systemd").appendingPathComponent(unit).path
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    return Dictionary(lines.compactMap { line -> (String, String)? in
        guard line.hasPrefix("Environment="), let equals = line.dropFirst("Environment=".count).firstIndex(of: "=") else { return nil }
        return (String(line[line.index(line.startIndex, offsetBy: "Environment=".count)..<equals]), String(line[line.index(after: equals)...]))
    }) { $1 }
}
