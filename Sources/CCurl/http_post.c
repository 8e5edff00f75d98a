// libcurl through dlopen(3): CCurl.h says why. curl_easy_setopt is variadic; each option is set through a pointer of
// the type that option takes (libcurl's documentation of curl_easy_setopt: a long, a char *, a pointer, a curl_off_t).
#define _GNU_SOURCE
#include "CCurl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    const char *(*easy_strerror)(CURLcode);
    void (*easy_reset)(CURL *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static char load_error[256];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define SYMBOL(field, name) \
    if (!(*(void **)&curl.field = dlsym(library, name))) { \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name); \
        return; \
    }
    SYMBOL(global_init, "curl_global_init")
    SYMBOL(easy_init, "curl_easy_init")
    SYMBOL(easy_cleanup, "curl_easy_cleanup")
    SYMBOL(easy_setopt, "curl_easy_setopt")
    SYMBOL(easy_perform, "curl_easy_perform")
    SYMBOL(easy_getinfo, "curl_easy_getinfo")
    SYMBOL(easy_strerror, "curl_easy_strerror")
    SYMBOL(easy_reset, "curl_easy_reset")
    SYMBOL(slist_append, "curl_slist_append")
    SYMBOL(slist_free_all, "curl_slist_free_all")
#undef SYMBOL
    // Once, before any thread uses libcurl (curl_global_init(3)).
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) snprintf(load_error, sizeof load_error, "curl_global_init: %s", curl.easy_strerror(code));
}

int cuff_http_load(char *error, size_t size) {
    pthread_once(&loaded, load);
    if (load_error[0] == 0) return 0;
    snprintf(error, size, "%s", load_error);
    return -1;
}

void *cuff_http_new(void) { return curl.easy_init(); }

void cuff_http_free(void *handle) { curl.easy_cleanup(handle); }

/// Keeps the first bytes of the response body; the rest is read and dropped.
static size_t keep_start(char *data, size_t size, size_t count, void *context) {
    cuff_http_result *result = context;
    size_t bytes = size * count, room = sizeof result->body - result->body_length;
    size_t kept = bytes < room ? bytes : room;
    memcpy(result->body + result->body_length, data, kept);
    result->body_length += kept;
    return bytes;
}

int cuff_http_post(void *handle, const char *url, const char *const *headers, size_t header_count, const void *body, size_t length,
                   long timeout_ms, const char *ca_file, cuff_http_result *result) {
    memset(result, 0, sizeof *result);
    struct curl_slist *list = NULL;
    for (size_t index = 0; index < header_count; index++) list = curl.slist_append(list, headers[index]);
    // "Expect: 100-continue" would cost a round trip per page for a body over 1 MiB, and some receivers answer it wrong.
    list = curl.slist_append(list, "Expect:");
    CURL *easy = handle;
    curl.easy_reset(easy);  // keeps the connection and TLS session caches
    char error[CURL_ERROR_SIZE] = {0};
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, error);
    curl.easy_setopt(easy, CURLOPT_URL, url);
    curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);  // no SIGALRM for the timeout: the program has threads
    curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl.easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
    if (ca_file) curl.easy_setopt(easy, CURLOPT_CAINFO, ca_file);
    curl.easy_setopt(easy, CURLOPT_POST, 1L);
    curl.easy_setopt(easy, CURLOPT_POSTFIELDS, body);
    curl.easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)length);
    curl.easy_setopt(easy, CURLOPT_HTTPHEADER, list);
    curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, keep_start);
    curl.easy_setopt(easy, CURLOPT_WRITEDATA, result);
    CURLcode code = curl.easy_perform(easy);
    // Nothing of this call's stack stays with the handle.
    curl.easy_setopt(easy, CURLOPT_HTTPHEADER, NULL);
    curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, NULL);
    curl.easy_setopt(easy, CURLOPT_WRITEDATA, NULL);
    curl.slist_free_all(list);
    if (code != CURLE_OK) {
        snprintf(result->error, sizeof result->error, "%s", error[0] ? error : curl.easy_strerror(code));
        result->timed_out = code == CURLE_OPERATION_TIMEDOUT;
        return -1;
    }
    curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &result->status);
    return 0;
}
