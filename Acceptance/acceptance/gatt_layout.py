"""The GATT database of an emulated cuff: the services a scenario names, as docs/cuff-sim.md lists
them (docs/reference/GATT-HEALTH.md §2; BPS 1.1's records §7–§8; Current Time §10; QardioArm §12; Microlife §13.12), so cuff-sim and
the real stack expose the same characteristics."""
from __future__ import annotations

from typing import Protocol

from bumble.att import Attribute
from bumble.gatt import (GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, Characteristic,
                         CharacteristicValue, Descriptor, Service)

from . import a_and_d, microlife, omron, qardio_arm
from .gatt_handles import add_at_handles
from .scenario import Cuff

P = Characteristic.Properties
WRIST = 0x02           # Body Sensor Location 0x2A38 (Heart Rate Service 1.0 §3.2)
DEVICE_INFORMATION = (('2A29', 'manufacturer'), ('2A24', 'model'), ('2A25', 'serial'), ('2A26', 'firmware'))
# Omron's service where cuff-sim puts it (`GattLayout.omronServiceHandle`), below its receive channels, whose
# declarations sit where real cuffs have them (docs/omron.md §1).
OMRON_SERVICE_HANDLE = 0x0300
OMRON_RECEIVE_HANDLES = (0x0360, 0x0370, 0x0380, 0x0390)


# The services whose characteristics a cuff that pairs protects (cuff-sim's `GattLayout.protectedServices`):
# measurements, records, control points and the clock; Device Information and Battery stay open.
PROTECTED = {'1810', '180D', '1805', omron.SERVICE, omron.MODERN_SERVICE, a_and_d.SERVICE, microlife.SERVICE}


class Behaviour(Protocol):
    """What the cuff does when the host reads its clock or writes one of its control points."""
    def read_clock(self, connection) -> bytes: ...
    def write_clock(self, connection, value: bytes) -> None: ...
    def write_date_time(self, connection, value: bytes) -> None: ...
    def write_a_and_d(self, connection, value: bytes) -> None: ...
    def write_microlife(self, connection, value: bytes) -> None: ...
    def write_record_access(self, connection, value: bytes) -> None: ...
    def write_vendor_control(self, connection, value: bytes) -> None: ...
    def write_omron_unlock(self, connection, value: bytes) -> None: ...
    def write_omron_channel(self, connection, channel: int, value: bytes) -> None: ...


class GattLayout:
    """Builds the services; `characteristic(uuid)` finds one by its UUID (16-bit ones as four hex digits).

    A cuff that pairs takes configuration writes (CCCD), and reads and writes of the protected services,
    only over an encrypted link, and only over an authenticated one when it pairs with a passkey:
    bluetoothd must pair before it can subscribe, as with real cuffs.
    """

    def __init__(self, cuff: Cuff, server, behaviour: Behaviour):
        self.by_uuid: dict[str, Characteristic] = {}
        self.cccd_permissions = Attribute.READABLE | Attribute.WRITEABLE
        self.security = Attribute.Permissions(0)
        if cuff.pairing != 'none':
            self.security |= Attribute.READ_REQUIRES_ENCRYPTION | Attribute.WRITE_REQUIRES_ENCRYPTION
        if cuff.pairing == 'passkey':
            self.security |= Attribute.READ_REQUIRES_AUTHENTICATION | Attribute.WRITE_REQUIRES_AUTHENTICATION
        self.cccd_permissions |= self.security & (Attribute.WRITE_REQUIRES_ENCRYPTION | Attribute.WRITE_REQUIRES_AUTHENTICATION)
        self.server = server
        self.behaviour = behaviour
        self.service = ''
        builders = {'1810': self._blood_pressure, '180D': self._heart_rate, '180A': self._device_information,
                    '1805': self._current_time, '180F': self._battery}
        self.services = []
        for uuid in sorted(cuff.services):
            self.service = uuid
            self.services.append(Service(uuid, builders[uuid](cuff)))
        self.omron_service = None
        if cuff.vendor == 'omron':
            self.service = omron.SERVICE
            self.omron_service = Service(omron.SERVICE, self._omron())
        if cuff.vendor == 'omronModern':
            self.service = omron.MODERN_SERVICE
            self.services.append(Service(omron.MODERN_SERVICE, self._omron_modern()))
        if cuff.vendor == 'aAndD':
            self.service = a_and_d.SERVICE
            self.services.append(Service(a_and_d.SERVICE, [self._make(
                a_and_d.COMMAND, P.WRITE, CharacteristicValue(write=self.behaviour.write_a_and_d))]))
        if cuff.vendor == 'microlife':
            self.service = microlife.SERVICE
            self.services.append(Service(microlife.SERVICE, [self._make(microlife.NOTIFY, P.NOTIFY), self._make(
                microlife.COMMAND, P.WRITE, CharacteristicValue(write=self.behaviour.write_microlife))]))

    def add_to(self, device):
        """The services into the device's GATT server; Omron's last, at its handles."""
        device.add_services(self.services)
        if self.omron_service:
            add_at_handles(device.gatt_server, self.omron_service, OMRON_SERVICE_HANDLE,
                           {self.by_uuid[uuid]: handle for uuid, handle in zip(omron.RECEIVE, OMRON_RECEIVE_HANDLES)})

    def characteristic(self, uuid: str) -> Characteristic | None:
        return self.by_uuid.get(uuid)

    def _make(self, uuid: str, properties, value: bytes | CharacteristicValue = b'') -> Characteristic:
        permissions = Characteristic.READABLE | (Characteristic.WRITEABLE if properties & (P.WRITE | P.WRITE_WITHOUT_RESPONSE) else 0)
        if self.service in PROTECTED:
            permissions |= self.security
        characteristic = Characteristic(uuid, properties, permissions, value)
        if properties & (P.NOTIFY | P.INDICATE):
            # The server adds a CCCD only when there is none; this one carries the cuff's security.
            characteristic.descriptors = [Descriptor(
                GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, self.cccd_permissions,
                self.server.make_descriptor_value(characteristic))]
        self.by_uuid[uuid] = characteristic
        return characteristic

    def _blood_pressure(self, cuff: Cuff):
        """With `records` a BPS 1.1 cuff: Enhanced BPM 0x2B34, Blood Pressure Record 0x2B36, RACP 0x2A52;
        with `vendor` the QardioArm control point; with a Date Time clock its write-only 0x2A08 (A&D)."""
        characteristics = [self._make('2A35', P.INDICATE), self._make('2A36', P.NOTIFY),
                           self._make('2A49', P.READ, cuff.feature)]
        if cuff.records is not None:
            characteristics += [self._make('2B34', P.INDICATE), self._make('2B36', P.INDICATE),
                                self._make('2A52', P.WRITE | P.INDICATE,
                                           CharacteristicValue(write=self.behaviour.write_record_access))]
        if cuff.vendor == 'qardioArm':
            characteristics.append(self._make(qardio_arm.UUID, P.WRITE | P.NOTIFY,
                                              CharacteristicValue(write=self.behaviour.write_vendor_control)))
        if cuff.date_time_clock:
            characteristics.append(self._make('2A08', P.WRITE, CharacteristicValue(write=self.behaviour.write_date_time)))
        return characteristics

    def _omron(self):
        """Omron's service (docs/omron.md §1): transmit channels (write), unlock (write, notify), receive channels
        (notify), in cuff-sim's order."""
        def channel(index: int):
            return CharacteristicValue(write=lambda connection, value: self.behaviour.write_omron_channel(connection, index, value))
        return ([self._make(uuid, P.WRITE, channel(index)) for index, uuid in enumerate(omron.TRANSMIT)]
                + [self._make(omron.UNLOCK, P.WRITE | P.NOTIFY, CharacteristicValue(write=self.behaviour.write_omron_unlock))]
                + [self._make(uuid, P.NOTIFY) for uuid in omron.RECEIVE])

    def _omron_modern(self):
        """Omron's 0xFE4A service (docs/omron.md §1): one transmit channel (Write Command), one receive channel,
        the unlock characteristic (either kind of write)."""
        channel = CharacteristicValue(write=lambda connection, value: self.behaviour.write_omron_channel(connection, 0, value))
        return [self._make(omron.TRANSMIT[0], P.WRITE_WITHOUT_RESPONSE, channel), self._make(omron.RECEIVE[0], P.NOTIFY),
                self._make(omron.UNLOCK, P.WRITE | P.WRITE_WITHOUT_RESPONSE | P.NOTIFY,
                           CharacteristicValue(write=self.behaviour.write_omron_unlock))]

    def _heart_rate(self, cuff: Cuff):
        return [self._make('2A37', P.NOTIFY), self._make('2A38', P.READ, bytes([WRIST])), self._make('2A39', P.WRITE)]

    def _device_information(self, cuff: Cuff):
        return [self._make(uuid, P.READ, cuff.device_information[key].encode())
                for uuid, key in DEVICE_INFORMATION if key in cuff.device_information]

    def _current_time(self, cuff: Cuff):
        """The cuff's running clock; `write` unless the scenario's clock says `"writable": false`."""
        properties = P.READ | P.NOTIFY | (P.WRITE if cuff.clock_writable else 0)
        return [self._make('2A2B', properties,
                           CharacteristicValue(read=self.behaviour.read_clock, write=self.behaviour.write_clock))]

    def _battery(self, cuff: Cuff):
        return [self._make('2A19', P.READ | P.NOTIFY, bytes([100]))]
