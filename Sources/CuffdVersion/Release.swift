/// cuffd's release: `Release.version` is generated from `debian/changelog` by the `ReleaseVersion` build plugin
/// (Plugins/ReleaseVersion), so the package and every program report one version.
public enum Release {}
