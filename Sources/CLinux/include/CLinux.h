#ifndef CUFFD_CLINUX_H
#define CUFFD_CLINUX_H

// Linux calls that Swift's Glibc module does not import because they need _GNU_SOURCE, and glibc's malloc.h
// (malloc_trim(3)) and sys/pidfd.h (pidfd_open(2)), which it leaves out.

#include <malloc.h>
#include <spawn.h>
#include <stddef.h>
#include <sys/pidfd.h>

/// Creates a memfd holding `length` bytes of `data`, sealed against any change (memfd_create(2),
/// fcntl(2) F_ADD_SEALS), as the journal's native protocol wants for entries too large for a datagram.
/// Returns the descriptor, or -errno.
int cuffd_sealed_memfd(const char *name, const void *data, size_t length);

/// 1 when the kernel's clock discipline reports the system clock synchronised (adjtimex(2): STA_UNSYNC
/// clear and no TIME_ERROR), else 0.
int cuffd_clock_synchronized(void);

/// posix_spawn_file_actions_addclosefrom_np (glibc ≥ 2.34): the child closes every descriptor from `from` on.
int cuffd_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/// Unmaps from this process the resident pages of its own executable file that it maps read-only and holds unchanged
/// (code, read-only data; madvise(2) MADV_DONTNEED, page by page from /proc/self/pagemap): they leave its RSS and
/// stay in the page cache, from which what runs again is mapped again. Pages relocated at start-up — private copies
/// in the same mappings — are kept. MADV_PAGEOUT would drop a file's pages only for a process that owns the file or
/// may write it (the kernel's can_do_file_pageout), which the packaged cuffd, user `cuffd`, does not: there it did
/// nothing (Benchmarks/RESULTS.md, "On a small board"). Returns the KiB unmapped, or -errno when /proc could not be
/// read.
long cuffd_release_executable_pages(void);

#endif
