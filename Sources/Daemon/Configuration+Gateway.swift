import Gateway

extension Configuration {
    /// What the Gateway takes from the configuration file: adapter, clock sync, the people behind User IDs,
    /// quirk overrides and the cuffs named in `[Cuff …]` sections.
    public var gatewayConfiguration: GatewayConfiguration {
        var gateway = GatewayConfiguration()
        gateway.adapter = adapter
        gateway.clockSync = clockSync
        gateway.heartRateFlushInterval = .seconds(heartRateFlushInterval)
        gateway.users = userDirectory
        gateway.knownCuffs = Set(cuffs.map(\.address))
        for cuff in cuffs {
            switch cuff.quirkOverride {
            case .quirk(let quirk)?: gateway.quirkOverrides[cuff.address] = .some(quirk)
            case .none?: gateway.quirkOverrides[cuff.address] = .some(nil)
            case nil: break
            }
        }
        return gateway
    }
}
