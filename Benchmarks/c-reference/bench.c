// bench CHARACTERISTIC HEX [COUNT]: decodes the payload COUNT times (default 10^7) through gatt_decode.c,
// compiled as its own translation unit so the call is not inlined (as Swift calls into GATTHealth), and
// prints nanoseconds per packet. Each result's address goes to an opaque sink.
#include "gatt_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__attribute__((noinline)) static void sink(void *value) { __asm__ volatile("" : : "r"(value) : "memory"); }

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: bench 2A35|2A37 HEX [COUNT]\n"); return 64; }
    uint8_t bytes[512];
    size_t count = 0;
    for (const char *c = argv[2]; c[0] && c[1] && count < sizeof bytes;) {
        if (*c == ' ' || *c == ':') { c++; continue; }
        char pair[3] = {c[0], c[1], 0};
        bytes[count++] = (uint8_t)strtoul(pair, NULL, 16);
        c += 2;
    }
    long n = argc > 3 ? atol(argv[3]) : 10000000L;
    int bpm = strcmp(argv[1], "2A35") == 0;
    bpm_value b;
    hrm_value h;
    for (long i = 0; i < 10000; i++) { if (bpm) bpm_decode(bytes, count, &b); else hrm_decode(bytes, count, &h); }
    double start = now_ns();
    if (bpm) for (long i = 0; i < n; i++) { bpm_decode(bytes, count, &b); sink(&b); }
    else for (long i = 0; i < n; i++) { hrm_decode(bytes, count, &h); sink(&h); }
    printf("%.3f\n", (now_ns() - start) / n);
    return 0;
}
