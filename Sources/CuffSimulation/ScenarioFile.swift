import Foundation

/// Reads scenario files for `cuff-sim` and `cuff-sim replay`, saying in words why one cannot be read.
public enum ScenarioFile {
    /// Why a file could not be read: "is a directory", "does not exist", "permission denied", ….
    public struct Unreadable: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot read \(path): \(reason)" }
    }

    /// The bytes of the scenario at `path`.
    public static func read(_ path: String) throws(Unreadable) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Unreadable(path: path, reason: "it does not exist")
        }
        guard !isDirectory.boolValue else { throw Unreadable(path: path, reason: "it is a directory, not a scenario file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Unreadable(path: path, reason: FileManager.default.isReadableFile(atPath: path) ? "reading it failed" : "permission denied")
        }
        return data
    }
}
