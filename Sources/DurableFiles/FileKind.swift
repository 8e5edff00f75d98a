#if canImport(Glibc)
import Glibc
#endif

/// The kinds of file lstat(2) tells apart (inode(7), "The file type and mode"), in words.
public enum FileKind {
    /// `a symbolic link`, `a folder`, … for the type bits of `mode`.
    public static func name(of mode: mode_t) -> String {
        let names: [mode_t: String] = [
            S_IFREG: "a regular file", S_IFDIR: "a folder", S_IFLNK: "a symbolic link", S_IFCHR: "a character device",
            S_IFBLK: "a block device", S_IFIFO: "a FIFO", S_IFSOCK: "a socket",
        ]
        return names[mode & S_IFMT] ?? "of an unknown kind"
    }

    /// The type bits of what `path` names itself, a symbolic link not followed; nil when lstat(2) fails (errno says why).
    public static func of(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }
}
