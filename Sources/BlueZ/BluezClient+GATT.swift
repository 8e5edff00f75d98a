import DBus

/// `GattCharacteristic1` reads and writes by device and UUID (`doc/gatt-api.txt`, docs/reference/BLUEZ-DBUS.md §8).
extension BluezClient {
    /// `ReadValue`. On a notifying characteristic the read value also arrives as a ``BluezEvent/value``
    /// (docs/reference/BLUEZ-DBUS.md §7: "expect the read twice").
    public func readValue(_ uuid: String, of device: DeviceID) async throws(BluezError) -> [UInt8] {
        let path = try characteristicPath(uuid, of: device)
        do {
            let reply = try await connection.call(BluezName.service, path, BluezName.gattCharacteristic, "ReadValue", [[String: DBusVariant]().dbusValue])
            return try reply.first?.decode([UInt8].self) ?? []
        } catch let error as DBusError {
            throw BluezError(error)
        } catch {
            throw BluezError(DBusError(.invalidArgs, "ReadValue answered \(error)"))
        }
    }

    /// How a value is written (`WriteValue` option `type`).
    public enum WriteType: String, Sendable {
        /// Write Request: the cuff acknowledges it (control points, RACP, Current Time).
        case request
        /// Write Command, without response.
        case command
    }

    /// `WriteValue` with `type` (docs/reference/BLUEZ-DBUS.md §8: RACP and the QardioArm control point are written with
    /// `request`).
    /// Each write is announced as ``BluezEvent/write(_:_:)`` as it goes out, and again when it is refused.
    public func writeValue(_ bytes: [UInt8], to uuid: String, of device: DeviceID, type: WriteType = .request) async throws(BluezError) {
        let path = try characteristicPath(uuid, of: device)
        let options: [String: DBusVariant] = ["type": DBusVariant(type.rawValue)]
        var write = GattWrite(uuid: uuid, bytes: bytes, type: type)
        emit(.write(device, write))
        do {
            _ = try await connection.call(BluezName.service, path, BluezName.gattCharacteristic, "WriteValue", [.bytes(bytes), options.dbusValue])
        } catch {
            let refusal = BluezError(error)
            write.refusal = refusal.description
            emit(.write(device, write))
            throw refusal
        }
    }

    /// `ReadValue` of the descriptor at `path` (`doc/gatt-api.txt`), for a capture's walk (docs/capture.md).
    public func readDescriptor(_ descriptor: GattDescriptor) async throws(BluezError) -> [UInt8] {
        do {
            let reply = try await connection.call(BluezName.service, descriptor.path, BluezName.gattDescriptor, "ReadValue", [[String: DBusVariant]().dbusValue])
            return try reply.first?.decode([UInt8].self) ?? []
        } catch let error as DBusError {
            throw BluezError(error)
        } catch {
            throw BluezError(DBusError(.invalidArgs, "ReadValue answered \(error)"))
        }
    }

    func characteristicPath(_ uuid: String, of device: DeviceID) throws(BluezError) -> DBusObjectPath {
        guard let characteristic = mirror.characteristic(uuid, of: device) else {
            throw BluezError(DBusError("org.bluez.Error.DoesNotExist", "\(device.address) has no characteristic \(uuid)"))
        }
        return characteristic.path
    }
}
