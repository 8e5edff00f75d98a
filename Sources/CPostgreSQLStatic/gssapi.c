#include "CPostgreSQLStatic.h"
#include "unreachable.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

// The GSSAPI (Kerberos) calls in Debian's libpq.a (PostgreSQL 15, fe-gssapi-common.c, fe-auth.c,
// fe-secure-gssapi.c): GSSAPI encryption of a session (`gssencmode`, §34.1.2) and GSSAPI authentication (§21.6).
// cuff-forward supports neither (docs/forwarding.md, "Configuration"); linking MIT Kerberos for them would load six
// libraries, 0.6 MiB resident, and ask Kerberos for credentials at each connection (Benchmarks/RESULTS.md).
//
// Types and constants as RFC 2744 (GSS-API v2, C bindings) gives them. libpq starts each use with one of two calls:
// - encryption with gss_acquire_cred (pg_GSS_have_cred_cache): it answers "unavailable", so `gssencmode=prefer`
//   goes on without GSSAPI and `require` fails the connection — a URL asking for it is refused before that
//   (PostgreSQLSettings);
// - authentication, when the server's pg_hba.conf asks for `gss`, with gss_import_name (pg_GSS_load_servicename):
//   it answers "unavailable" too, and libpq fails the connection with the message gss_display_status gives below.
// The other calls take a credential, name or context those two would have made, so they cannot be reached; should a
// change ever reach one, the program stops here and says so.

typedef uint32_t OM_uint32;
typedef struct { size_t length; void *value; } GSSBuffer;

enum {
    GSS_S_COMPLETE = 0,
    GSS_S_BAD_STATUS = 5u << 16,  // RFC 2744 §3.9.1: routine errors, in the third byte
    GSS_S_UNAVAILABLE = 16u << 16,
    GSS_C_GSS_CODE = 1,
};

static char const why[] = "cuff-forward is built without GSSAPI (Kerberos); use password (scram-sha-256) or certificate authentication";

// libpq passes it to gss_import_name as the name's type; it is never read.
void *GSS_C_NT_HOSTBASED_SERVICE = NULL;

OM_uint32 gss_acquire_cred(OM_uint32 *minor, void *name, OM_uint32 time, void *mechanisms, int usage, void **credential,
                           void *actualMechanisms, OM_uint32 *actualTime) {
    (void)name, (void)time, (void)mechanisms, (void)usage, (void)actualMechanisms, (void)actualTime;
    *minor = 0;
    *credential = NULL;
    return GSS_S_UNAVAILABLE;
}

OM_uint32 gss_import_name(OM_uint32 *minor, GSSBuffer *input, void *type, void **output) {
    (void)input, (void)type, (void)output;
    *minor = 0;
    return GSS_S_UNAVAILABLE;
}

// For the status gss_import_name returned: why, once; any other status has no text (libpq then adds none).
OM_uint32 gss_display_status(OM_uint32 *minor, OM_uint32 status, int type, void *mechanism, OM_uint32 *context, GSSBuffer *text) {
    (void)mechanism;
    *minor = 0;
    *context = 0;
    if (type != GSS_C_GSS_CODE || status != GSS_S_UNAVAILABLE) return GSS_S_BAD_STATUS;
    text->length = strlen(why);
    text->value = (void *)why;
    return GSS_S_COMPLETE;
}

// libpq releases each text gss_display_status gave; those are static.
OM_uint32 gss_release_buffer(OM_uint32 *minor, GSSBuffer *buffer) {
    *minor = 0;
    if (buffer->value != NULL && buffer->value != why) libpq_reached_unreachable("gss_release_buffer", "a buffer gss_display_status did not give");
    buffer->length = 0;
    buffer->value = NULL;
    return GSS_S_COMPLETE;
}

static _Noreturn void unreachable(const char *function) { libpq_reached_unreachable(function, "a GSSAPI credential, name or context"); }

// They abort before reading any argument, so none is declared.
OM_uint32 gss_delete_sec_context(void) { unreachable("gss_delete_sec_context"); }
OM_uint32 gss_init_sec_context(void) { unreachable("gss_init_sec_context"); }
OM_uint32 gss_release_cred(void) { unreachable("gss_release_cred"); }
OM_uint32 gss_release_name(void) { unreachable("gss_release_name"); }
OM_uint32 gss_unwrap(void) { unreachable("gss_unwrap"); }
OM_uint32 gss_wrap(void) { unreachable("gss_wrap"); }
OM_uint32 gss_wrap_size_limit(void) { unreachable("gss_wrap_size_limit"); }
