import CLinux

/// The heap's free pages handed back to the kernel once a backlog is forwarded (glibc's malloc_trim(3)).
///
/// Pages of a backlog — cuffd's replies, decoded readings, the server's results — are freed after each page, but
/// glibc keeps freed memory inside its heaps (the main one and the arena of each thread that allocated, such as the
/// D-Bus connection's) and returns only a free top of the main heap by itself. Caught up after 20 000 readings,
/// cuff-forward held 4.8 MiB of such pages for as long as it then slept (Benchmarks/RESULTS.md, "Forwarding a
/// backlog to PostgreSQL"); `malloc_trim(0)` gives every free page of every arena back, which costs a walk of the
/// heaps, once per catch-up rather than once per reading.
enum FreedMemory {
    static func release() {
        _ = malloc_trim(0)
    }
}
