import FoundationEssentials
import Glibc

/// A file cuff-forward reads whole as text (forward.conf, a password file, a PEM file), and the reason when it cannot:
/// strerror(3)'s words, as the rest of its messages give them.
enum TextFile {
    struct Unreadable: Error {
        /// Why, such as `No such file or directory`.
        let reason: String
    }

    static func read(_ path: String) throws(Unreadable) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Unreadable(reason: access(path, R_OK) == 0 ? "it is not a readable file" : String(cString: strerror(errno)))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
