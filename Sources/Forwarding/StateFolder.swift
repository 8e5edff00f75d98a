import DurableFiles
import Glibc

/// The folder of a sink's state files — its anchor, `status.json`, the MQTT sink's `users.json` — (docs/forwarding.md,
/// "The anchor rule"): a folder, not a symbolic link to one, as the files in it are regular files opened without
/// following one (``DurableFile``). A link or another kind of file there is refused at start (exit 73) and left as it is.
enum StateFolder {
    /// Checks the folder at `path`. With `make`, makes it first when it is missing (mode 0700), in a folder that must
    /// be no link either — else the MQTT sink's `mqtt/`, made in the folder of `[Forward]`'s `State=`, would be made
    /// wherever a link there pointed.
    static func prepare(_ path: String, make: Bool) throws(DurableFileError) {
        if make {
            try check(parentFolder(of: path))
            if mkdir(path, 0o700) != 0, errno != EEXIST { throw DurableFileError(path: path, problem: "cannot be made", code: errno) }
        }
        try check(path)
    }

    private static func check(_ path: String) throws(DurableFileError) {
        guard let kind = FileKind.of(path) else { throw DurableFileError(path: path, problem: "cannot be opened", code: errno) }
        guard kind == S_IFDIR else { throw DurableFileError(path: path, cannot: "cannot hold the state", mode: kind, expected: "a folder") }
    }
}
