import FoundationEssentials

extension CuffGateway {
    /// Commits the readings an earlier run kept in the spool because the store refused them (docs/gateway.md,
    /// "When the store refuses"), retrying with the sessions' backoff while it still refuses; each is announced
    /// as its cuff's stored reading once committed. Each time the store starts refusing is one problem, and a
    /// commit starts the backoff over.
    func recoverSpooledReadings() async {
        var attempt = 0
        for reading in await spool.kept() {
            while true {
                do {
                    let outcome = try await store.commit(reading)
                    attempt = 0
                    await spool.release(reading.syncIdentifier)
                    await publish(reading.device.address, [.readingStored(reading, outcome)])
                    break
                } catch {
                    attempt += 1
                    if attempt == 1 { emit(.problem(reading.device.address, "readings kept while the store refused still wait for it: \(error)")) }
                    try? await clock.sleep(for: configuration.storeRetry.delay(before: attempt))
                    if Task.isCancelled { return }
                }
            }
        }
    }
}
