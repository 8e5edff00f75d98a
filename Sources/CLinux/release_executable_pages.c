#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// /proc/self/pagemap, one 64-bit entry a page (proc(5), /proc/pid/pagemap).
#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_SWAPPED (1ULL << 62)
#define PAGEMAP_FILE (1ULL << 61)

/// Unmaps the pages of [start, end) that hold the file's contents unchanged: present page-cache pages, and pages
/// never faulted in. A private copy — a page relocated at start-up, or one swapped out — ends the run before it, so
/// MADV_DONTNEED, which would throw such a copy away, never reaches one. Returns the KiB unmapped that were resident.
static long release_file_pages(int pagemap, uintptr_t start, uintptr_t end, uintptr_t page) {
    uint64_t entries[512];
    long released = 0;
    uintptr_t run = 0, resident = 0, address = start;
    while (address < end) {
        size_t count = (end - address) / page < 512 ? (end - address) / page : 512;
        ssize_t got = pread(pagemap, entries, count * sizeof entries[0], (off_t)(address / page * sizeof entries[0]));
        if (got <= 0) break;
        count = (size_t)got / sizeof entries[0];
        for (size_t i = 0; i < count; i++, address += page) {
            uint64_t entry = entries[i];
            int unchanged = (entry & PAGEMAP_PRESENT) ? (entry & PAGEMAP_FILE) != 0 : (entry & PAGEMAP_SWAPPED) == 0;
            if (unchanged) {
                if (run == 0) run = address;
                if (entry & PAGEMAP_PRESENT) resident++;
                continue;
            }
            if (run != 0 && madvise((void *)run, address - run, MADV_DONTNEED) == 0) released += (long)(resident * page / 1024);
            run = 0, resident = 0;
        }
    }
    // Up to the last page looked at: a pagemap that could not be read further leaves the rest as it is.
    if (run != 0 && madvise((void *)run, address - run, MADV_DONTNEED) == 0) released += (long)(resident * page / 1024);
    return released;
}

long cuffd_release_executable_pages(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length < 0) return -errno;
    executable[length] = '\0';
    FILE *maps = fopen("/proc/self/maps", "re");
    if (maps == NULL) return -errno;
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (pagemap < 0) {
        int error = errno;
        fclose(maps);
        return -error;
    }
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    long released = 0;
    char line[PATH_MAX + 128];
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long start, end;
        char permissions[5];
        int path = 0;
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &start, &end, permissions, &path) < 3 || path == 0) continue;
        char *name = line + path;
        name[strcspn(name, "\n")] = '\0';
        // Only mappings nothing writes to: in a writable one a page could be written — copied — between the look at
        // pagemap and the madvise, and the write would be lost.
        if (permissions[1] == 'w' || strcmp(name, executable) != 0) continue;
        released += release_file_pages(pagemap, start, end, page);
    }
    close(pagemap);
    fclose(maps);
    return released;
}
