#include "CDBusStatic.h"

#include <stdio.h>
#include <stdlib.h>

// libdbus-1.a (dbus 1.14, Debian 12) calls these two only in _dbus_listen_systemd_sockets
// (dbus-sysdeps-unix.c), which only _dbus_server_listen_platform_specific (dbus-server-unix.c) calls, for a
// DBusServer given a `systemd:` listen address by dbus_server_listen — socket activation of a bus daemon.
// cuffd and cuff-forward are clients: neither calls dbus_server_listen, and neither's link contains that function
// or _dbus_server_listen_platform_specific (nm), only _dbus_listen_systemd_sockets itself, kept because the
// archive compiles dbus-sysdeps-unix.c into one .text section with functions they do run.
// Linking libsystemd.so.0 for them would load it with libgcrypt, liblzma, libzstd, liblz4, libcap and
// libgpg-error (0.8 MiB resident; Benchmarks/RESULTS.md, the daemon). Should a change ever reach them,
// the program stops here with this message instead of running without the sockets systemd passed.

static _Noreturn void unreachable(const char *function) {
    fprintf(stderr, "%s called: libdbus is listening on a systemd: address, which cuffd and cuff-forward do not support\n", function);
    abort();
}

int sd_listen_fds(int unset_environment) {
    (void)unset_environment;
    unreachable("sd_listen_fds");
}

int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd, (void)family, (void)type, (void)listening;
    unreachable("sd_is_socket");
}
