#ifndef CUFFD_CDBUSSTATIC_H
#define CUFFD_CDBUSSTATIC_H

// The two libsystemd functions Debian's libdbus-1.a refers to, for cuffd's static link (Package.swift).
// They are only reached by a D-Bus *server* listening on a `systemd:` address, which cuffd never is.

/// sd_listen_fds(3); aborts: see sd_listen_fds.c.
int sd_listen_fds(int unset_environment);

/// sd_is_socket(3); aborts: see sd_listen_fds.c.
int sd_is_socket(int fd, int family, int type, int listening);

#endif
