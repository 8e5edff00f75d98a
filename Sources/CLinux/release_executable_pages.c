#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

long cuffd_release_executable_pages(void) {
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length < 0) return -errno;
    executable[length] = '\0';
    FILE *maps = fopen("/proc/self/maps", "re");
    if (maps == NULL) return -errno;
    long released = 0;
    char line[PATH_MAX + 128];
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long start, end;
        char permissions[5];
        int path = 0;
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &start, &end, permissions, &path) < 3 || path == 0) continue;
        char *name = line + path;
        name[strcspn(name, "\n")] = '\0';
        // Only the file's own pages: a writable mapping's copied pages are the process's data, not the file's.
        if (permissions[1] == 'w' || strcmp(name, executable) != 0) continue;
        if (madvise((void *)start, end - start, MADV_PAGEOUT) == 0) released += (long)((end - start) / 1024);
    }
    fclose(maps);
    return released;
}
