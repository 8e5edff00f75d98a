import BenchmarkSupport
import BlueZ
import Daemon
import Foundation
import Gateway
import HealthStore

/// Makes the synthetic backlog's cuff one that cuffd remembers — its record in `cuffs.json` beside the store, as cuffd
/// writes it once it has identified a cuff —, so that cuff-forward publishes its readings as a paired cuff's: configs
/// and the state topic, not the history topic alone that a forgotten cuff's readings get (docs/home-assistant.md,
/// "Forgetting a cuff").
func rememberSyntheticCuff(storePath: String) async throws {
    let store = try HealthStore.open(path: storePath)
    let registry = try CuffRegistryFile(
        path: URL(fileURLWithPath: storePath).deletingLastPathComponent().appendingPathComponent("cuffs.json").path,
        storeIdentifier: store.identifier())
    guard let address = syntheticDevice.localIdentifier.flatMap(BluetoothAddress.init) else { fatalError("the synthetic cuff has no address") }
    try await registry.save(CuffRecord(address: address))
}
