#ifndef CUFFD_CLINUX_H
#define CUFFD_CLINUX_H

// Linux calls that Swift's Glibc module does not import because they need _GNU_SOURCE, and glibc's malloc.h
// (malloc_trim(3)), which it leaves out.

#include <malloc.h>
#include <spawn.h>
#include <stddef.h>

/// Creates a memfd holding `length` bytes of `data`, sealed against any change (memfd_create(2),
/// fcntl(2) F_ADD_SEALS), as the journal's native protocol wants for entries too large for a datagram.
/// Returns the descriptor, or -errno.
int cuffd_sealed_memfd(const char *name, const void *data, size_t length);

/// 1 when the kernel's clock discipline reports the system clock synchronised (adjtimex(2): STA_UNSYNC
/// clear and no TIME_ERROR), else 0.
int cuffd_clock_synchronized(void);

/// posix_spawn_file_actions_addclosefrom_np (glibc ≥ 2.34): the child closes every descriptor from `from` on.
int cuffd_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/// Asks the kernel to drop this process's resident pages of its own executable file, mapped read-only (madvise(2)
/// MADV_PAGEOUT, Linux 5.4): what start-up ran stays on disk until it runs again. Pages other processes map too are
/// left. Returns the KiB of mappings advised, or -errno when /proc could not be read.
long cuffd_release_executable_pages(void);

#endif
