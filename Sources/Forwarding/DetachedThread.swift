import Glibc

/// Runs `body` on a new thread that nobody waits for (pthread_create(3), detached): Foundation's `Thread { }.start()`
/// without Foundation, which cuff-forward does not link (Benchmarks/RESULTS.md, "cuff-forward's idle RSS").
func startDetachedThread(_ body: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let result = pthread_create(&thread, &attributes, { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    precondition(result == 0, "pthread_create: \(String(cString: strerror(result)))")
}

private final class ThreadBody: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
