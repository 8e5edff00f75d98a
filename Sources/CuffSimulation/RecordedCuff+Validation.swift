import CuffRecording
import GATTHealth

/// The rules of a recorded cuff that JSON types cannot state (docs/cuff-sim.md, "Recorded cuffs"): handles used once,
/// steps in time order naming characteristics of the database that can do what the step says, a link's disconnect
/// last, only later links coming `after` the one before.
extension RecordedCuff {
    func validate(path: String) throws(ScenarioError) {
        var handles: Set<UInt16> = []
        func use(_ handle: UInt16?, _ path: String) throws(ScenarioError) {
            guard let handle else { return }
            guard handles.insert(handle).inserted else { throw ScenarioError(path: path + ".handle", message: "\(handle) is used twice") }
        }
        for (serviceIndex, service) in services.enumerated() {
            let servicePath = path + ".services[\(serviceIndex)]"
            try use(service.handle, servicePath)
            for (index, characteristic) in service.characteristics.enumerated() {
                let characteristicPath = servicePath + ".characteristics[\(index)]"
                try use(characteristic.handle, characteristicPath)
                for (descriptorIndex, descriptor) in characteristic.descriptors.enumerated() {
                    try use(descriptor.handle, characteristicPath + ".descriptors[\(descriptorIndex)]")
                }
            }
        }
        for (index, link) in links.enumerated() {
            let linkPath = path + ".links[\(index)]"
            if index == 0, link.after != nil {
                throw ScenarioError(path: linkPath + ".after", message: "the first link comes up when the host connects; only later links come after one")
            }
            try validateSteps(link.steps, path: linkPath + ".steps")
        }
    }

    private func validateSteps(_ steps: [RecordedStep], path: String) throws(ScenarioError) {
        var previous = 0.0
        for (index, step) in steps.enumerated() {
            let stepPath = path + "[\(index)]"
            try ScenarioError.checkTimeOrder(step.after, previous: &previous, path: stepPath)
            guard let uuid = step.uuid else {
                guard index == steps.count - 1 else { throw ScenarioError(path: stepPath, message: "a disconnect ends its link: no step may follow it") }
                continue
            }
            guard let characteristic = characteristic(uuid) else {
                throw ScenarioError(path: stepPath, message: "\(BluetoothUUID.compact(uuid)) is not a characteristic of the recorded services")
            }
            switch step.action {
            case .value where !characteristic.canNotify, .subscribe where !characteristic.canNotify:
                throw ScenarioError(path: stepPath, message: "\(BluetoothUUID.compact(uuid)) neither notifies nor indicates (its flags: \(characteristic.flags.joined(separator: ", ")))")
            case let .write(_, _, command, nil) where !characteristic.flags.contains(command ? "write-without-response" : "write"):
                throw ScenarioError(
                    path: stepPath,
                    message: "\(BluetoothUUID.compact(uuid)) takes no \(command ? "Write Command" : "Write Request") (its flags: \(characteristic.flags.joined(separator: ", "))); a write it refused says so in \"refused\"")
            default:
                break
            }
        }
    }
}
