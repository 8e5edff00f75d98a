import BlueZ
import GATTHealth

extension CuffGateway {
    /// Resets the Energy Expended a heart-rate sensor counts, through its Heart Rate Control Point (0x2A39, value
    /// 0x01; docs/reference/GATT-HEALTH.md §9), connecting first if needed. A device without the control point
    /// (it is optional, present only with Energy Expended) is ``GatewayError/unsupported(_:_:)``.
    public func resetEnergyExpended(_ address: BluetoothAddress) async throws(GatewayError) {
        guard let id = state.cuffs[address]?.device.id else { throw .unknownCuff(address) }
        do {
            try await bluetooth.connect(id)
            try await bluetooth.writeValue(HeartRateControlPoint.resetEnergyExpended.encoded(), to: HealthCharacteristic.heartRateControlPoint.uuid, of: id)
        } catch where error.kind == .doesNotExist {
            throw .unsupported(address, "Heart Rate Control Point (0x2A39): it cannot reset Energy Expended")
        } catch {
            throw .bluez(error)
        }
    }
}
