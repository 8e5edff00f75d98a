#ifndef CUFFD_ALLOCATION_COUNTER_H
#define CUFFD_ALLOCATION_COUNTER_H

// Counts heap allocations of this process while counting is on, for Benchmarks/decode-benchmark.
//
// malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign are defined here and forward to
// glibc's exported __libc_* entry points; a program that links this target statically (decode-benchmark) sees
// every allocation of its own code and of the Swift runtime — and exports malloc for every library it loads, which
// is why no program that ships links it (Tests/InstallationTests checks). Counting off costs one relaxed load.

/// Starts counting from zero.
void cuffd_allocations_start(void);

/// Stops counting; returns the allocations since the start.
long cuffd_allocations_stop(void);

#endif
