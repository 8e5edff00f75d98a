import Glibc

/// Blocks, on the calling thread, every signal that is not raised by the thread's own faults — what
/// libdispatch's `dispatch_main` does to the main thread before it parks it (swift-corelibs-libdispatch,
/// src/init.c `_dispatch_sigmask`; its worker threads do the same).
///
/// ServiceLifecycle sets SIGTERM's and SIGINT's action to "ignore" and receives them through a dispatch
/// signal source, which libdispatch reads from a signalfd. The kernel discards an ignored signal unless
/// the main thread blocks it (signal(7): process-directed signals; kernel/signal.c
/// `sig_ignored`), so a loop that keeps the main thread must block them as `dispatch_main` did.
enum AsynchronousSignals {
    /// Raised synchronously by the faulting thread (or by profiling and broken pipes), and so left unblocked.
    static let synchronous: [Int32] = [SIGILL, SIGTRAP, SIGFPE, SIGBUS, SIGSEGV, SIGSYS, SIGPIPE, SIGPROF]

    static func blockOnCurrentThread() {
        var mask = sigset_t()
        sigfillset(&mask)
        for signal in synchronous {
            sigdelset(&mask, signal)
        }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }
}
