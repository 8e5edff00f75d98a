// libcurl (Debian's libcurl4-openssl-dev) for cuff-forward's HTTP sink, opened with dlopen(3) the first time a POST is
// made rather than linked: libcurl.so.4 loads LDAP, GnuTLS (through librtmp) and Kerberos, which the release
// cuff-forward keeps out of its address space (docs/forwarding.md, "Why libpq" and "The HTTP sink"), so only a
// cuff-forward configured with [HTTP] maps them.
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>

/// What one POST came to: the HTTP status (0 when no response came), the start of the response body, or libcurl's
/// error in words.
typedef struct {
    long status;
    /// The first bytes of the response body (enough for its first line), not NUL-terminated.
    char body[512];
    size_t body_length;
    /// libcurl's message when the transfer failed (status 0), NUL-terminated; empty otherwise.
    char error[512];
    /// The transfer failed on a timeout (CURLE_OPERATION_TIMEDOUT).
    int timed_out;
} cuff_http_result;

/// Opens libcurl.so.4 and initializes it once; 0 on success, else -1 with dlerror's message in `error`.
int cuff_http_load(char *error, size_t size);

/// A new easy handle, reused for every POST of one sink so that its connection is kept alive; NULL when libcurl cannot
/// make one. Call cuff_http_load first.
void *cuff_http_new(void);
void cuff_http_free(void *handle);

/// POSTs `body` to `url` with `headers` (each "Name: value"), verifying a TLS peer's certificate and name against
/// `ca_file` (or the system's CAs when NULL), following no redirect, allowing only http and https, and giving up after
/// `timeout_ms`. Blocks; returns -1 when the transfer failed (see `result->error`), else 0 with `result->status`.
int cuff_http_post(void *handle, const char *url, const char *const *headers, size_t header_count, const void *body, size_t length,
                   long timeout_ms, const char *ca_file, cuff_http_result *result);

#endif
