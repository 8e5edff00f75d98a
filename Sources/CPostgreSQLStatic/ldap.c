#include "CPostgreSQLStatic.h"

#include "unreachable.h"

#include <errno.h>
#include <stddef.h>

// OpenLDAP's calls in Debian's libpq.a (PostgreSQL 15, fe-connect.c, ldapServiceLookup): libpq's look-up of connection
// parameters on an LDAP server, for a line of a connection service file that starts with `ldap://` (PostgreSQL 15
// documentation §34.18, "LDAP Lookup of Connection Parameters").
//
// cuff-forward does not make such look-ups: linking libldap for them would load it with SASL and GnuTLS and eight more
// libraries, 1.9 MiB resident (Benchmarks/RESULTS.md, "cuff-forward's idle RSS: libpq linked from its archive").
// ldap_init is the look-up's first call: it answers NULL, and libpq fails the connection with "could not create LDAP
// structure" (docs/forwarding.md, "Configuration", says why). libpq calls the others only with the handle
// ldap_init returned, so they cannot be reached; should a change ever reach one, the program stops here and says so.

void *ldap_init(const char *host, int port) {
    (void)host, (void)port;
    errno = ENOTSUP;
    return NULL;
}

static _Noreturn void unreachable(const char *function) { libpq_reached_unreachable(function, "an LDAP handle"); }

// They abort before reading any argument, so none is declared.
int ldap_count_entries(void) { unreachable("ldap_count_entries"); }
char *ldap_err2string(void) { unreachable("ldap_err2string"); }
void *ldap_first_entry(void) { unreachable("ldap_first_entry"); }
void *ldap_get_values_len(void) { unreachable("ldap_get_values_len"); }
int ldap_msgfree(void) { unreachable("ldap_msgfree"); }
int ldap_result(void) { unreachable("ldap_result"); }
int ldap_search_st(void) { unreachable("ldap_search_st"); }
int ldap_set_option(void) { unreachable("ldap_set_option"); }
int ldap_simple_bind(void) { unreachable("ldap_simple_bind"); }
int ldap_unbind(void) { unreachable("ldap_unbind"); }
void ldap_value_free_len(void) { unreachable("ldap_value_free_len"); }
