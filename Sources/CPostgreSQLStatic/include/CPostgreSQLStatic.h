#ifndef CUFFD_CPOSTGRESQLSTATIC_H
#define CUFFD_CPOSTGRESQLSTATIC_H

// The LDAP and GSSAPI functions Debian's libpq.a refers to, for cuff-forward's static link of libpq (Package.swift,
// link/libpq.ld). libpq reaches them only for an `ldap://` line of a connection service file and for Kerberos;
// cuff-forward supports neither, and says so where libpq asks (ldap.c, gssapi.c). Swift calls none of them, so none
// is declared here: libpq.a finds them by name at link time.

#endif
