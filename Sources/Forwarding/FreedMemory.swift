import CLinux

/// The heap's free pages handed back to the kernel once a backlog is forwarded (glibc's malloc_trim(3)).
///
/// Pages of a backlog — cuffd's replies, decoded readings, the server's results — are freed after each page, but
/// glibc keeps freed memory inside its heaps (the main one and the arena of each thread that allocated, such as the
/// D-Bus connection's) and returns only a free top of the main heap by itself. Caught up after 20 000 readings,
/// cuff-forward held 4.8 MiB of such pages for as long as it then slept (Benchmarks/RESULTS.md, "Forwarding a
/// backlog to PostgreSQL"); `malloc_trim(0)` gives every free page of every arena back, which costs a walk of the
/// heaps, once per catch-up rather than once per reading.
///
/// glibc raises its thresholds as a program frees large blocks: after a freed block larger than the mmap threshold
/// (128 KiB at start), later blocks up to the new threshold come from the heaps instead of mmap(2), and a heap trims
/// its top only past twice that. A page's arrays, freed after `release()` has run — on the D-Bus connection's thread —,
/// then stayed in the heaps: idle 6 s after a backlog of 20 000 readings cuff-forward held 17.6–26.3 MiB, run to run.
/// ``returnLargeBlocksAtOnce()`` fixes both thresholds (mallopt(3)), so that a block of 128 KiB or more is mapped of its
/// own and unmapped when freed, and a heap gives back a free top past 128 KiB: a handful of mmap(2) calls a page.
enum FreedMemory {
    static func release() {
        _ = malloc_trim(0)
    }

    static func returnLargeBlocksAtOnce() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
        _ = mallopt(M_TRIM_THRESHOLD, 128 * 1024)
    }
}
