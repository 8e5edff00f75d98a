#ifndef CUFFD_CPOSTGRESQLSTATIC_UNREACHABLE_H
#define CUFFD_CPOSTGRESQLSTATIC_UNREACHABLE_H

/// Stops the program with "FUNCTION called: libpq is using WHAT, which cuff-forward never makes": for the LDAP and
/// GSSAPI functions libpq reaches only through a handle that ldap.c and gssapi.c never hand out.
_Noreturn void libpq_reached_unreachable(const char *function, const char *what);

#endif
