import BlueZ
import GATTHealth

/// A device a scan saw, and what cuffd recognises it as (``CuffCatalog``): what `cuffctl scan` lists, before anyone
/// pairs (docs/compatibility.md).
public struct ScannedCuff: Sendable {
    public let device: Device
    /// The model or family its advertisement names, with cuffd's verdict on it.
    public let model: CuffModel
    /// What its advertisement says of its state (``CuffModel/states(in:)``), e.g. an A&D UA-1200BLE in cooperation mode.
    public let states: [String]

    init?(_ device: Device) {
        guard let model = CuffCatalog.recognise(device.advertisement) else { return nil }
        self.device = device
        self.model = model
        states = model.states(in: device.advertisement)
    }
}

extension Device {
    /// What the device's advertisement says, as the catalog recognises models by it.
    public var advertisement: CuffAdvertisement {
        CuffAdvertisement(name: name, uuids: uuids, manufacturers: manufacturerData.keys.sorted())
    }
}
