import Foundation
import PackagePlugin

/// Writes `ReleaseVersion.swift` from the first entry of `debian/changelog`, the one place cuffd's version is kept:
/// Debian Policy §4.4 makes that entry the package's version, so `dch -v 0.2` versions both the `.deb` and what
/// `cuffd --version`, `cuffctl --version` and the control API report. Rebuilt whenever the changelog changes.
@main
struct ReleaseVersionPlugin: BuildToolPlugin {
    /// `sed` takes the version out of the entry's first line, `cuffd (0.1) unstable; urgency=medium`
    /// (deb-changelog(5)); a changelog without one fails the build rather than versioning it "".
    private static let script = #"""
        version=$(sed -n '1s/^[a-z0-9.+-]* (\([^ ()]*\)) .*/\1/p' "$1")
        [ -n "$version" ] || { echo "$1: no version in the first line" >&2; exit 1; }
        printf 'extension Release {\n    /// The version of the first entry of debian/changelog.\n    public static let version = "%s"\n}\n' "$version" > "$2"
        """#

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let changelog = context.package.directoryURL.appending(path: "debian/changelog")
        let output = context.pluginWorkDirectoryURL.appending(path: "ReleaseVersion.swift")
        return [.buildCommand(
            displayName: "Reading the version from debian/changelog",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", Self.script, "release-version", changelog.path, output.path],
            inputFiles: [changelog],
            outputFiles: [output]
        )]
    }
}
