/// What the emulator does in the background — a link coming up, services resolving, notifications being enabled,
/// a script playing, a record report, a scan reporting cuffs, a temporary device's removal — is started through
/// `spawn`, so that a test can wait until all of it has ended (`settle()`), instead of waiting for a time.
extension BluezEmulator {
    /// Background work under way, by number.
    struct BackgroundWork {
        fileprivate var waits: [Int: @Sendable () async -> Void] = [:]
        fileprivate var next = 0
    }

    /// Starts `work` in a task of its own, tracked until it ends.
    @discardableResult
    func spawn<Success: Sendable>(_ work: @escaping @Sendable () async -> Success) -> Task<Success, Never> {
        let number = background.next
        background.next += 1
        let task = Task {
            let result = await work()
            self.ended(number)
            return result
        }
        // Before `ended` can run: this method holds the actor until it returns.
        background.waits[number] = { _ = await task.value }
        return task
    }

    private func ended(_ number: Int) {
        background.waits[number] = nil
    }

    /// Returns once no background work is under way: every script has played (or was canceled), every procedure
    /// and link set-up has ended, every temporary device's removal has happened or been called off. For tests: the
    /// emulator sends nothing more until it is asked to. Work started meanwhile is waited for too.
    public func settle() async {
        while let wait = background.waits.first?.value {
            await wait()
        }
    }
}
