"""The GATT database of an emulated cuff: the services a scenario names, as docs/cuff-sim.md lists
them (GATT-HEALTH.md §2), so cuff-sim and the real stack expose the same characteristics."""
from __future__ import annotations

import datetime

from bumble.att import Attribute
from bumble.gatt import (GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, Characteristic,
                         Descriptor, Service)

from .scenario import Cuff

P = Characteristic.Properties
WRIST = 0x02           # Body Sensor Location 0x2A38 (Heart Rate Service 1.0 §3.2)
DEVICE_INFORMATION = (('2A29', 'manufacturer'), ('2A24', 'model'), ('2A25', 'serial'), ('2A26', 'firmware'))


def current_time(now: datetime.datetime) -> bytes:
    """Current Time 0x2A2B: Exact Time 256 and an adjust reason (Current Time Service 1.1 §3.1)."""
    return (now.year.to_bytes(2, 'little')
            + bytes([now.month, now.day, now.hour, now.minute, now.second, now.isoweekday(), 0, 0]))


class GattLayout:
    """Builds the services; `characteristic(uuid)` finds one by its 16-bit UUID.

    A cuff that pairs takes configuration writes (CCCD) only over an encrypted link, and only over an
    authenticated one when it pairs with a passkey: bluetoothd must pair before it can subscribe,
    as with real cuffs.
    """

    def __init__(self, cuff: Cuff, server):
        self.by_uuid: dict[str, Characteristic] = {}
        self.cccd_permissions = Attribute.READABLE | Attribute.WRITEABLE
        if cuff.pairing != 'none':
            self.cccd_permissions |= Attribute.WRITE_REQUIRES_ENCRYPTION
        if cuff.pairing == 'passkey':
            self.cccd_permissions |= Attribute.WRITE_REQUIRES_AUTHENTICATION
        self.server = server
        builders = {'1810': self._blood_pressure, '180D': self._heart_rate, '180A': self._device_information,
                    '1805': self._current_time, '180F': self._battery}
        self.services = [Service(uuid, builders[uuid](cuff)) for uuid in sorted(cuff.services)]

    def characteristic(self, uuid: str) -> Characteristic | None:
        return self.by_uuid.get(uuid)

    def _make(self, uuid: str, properties, value: bytes = b'') -> Characteristic:
        permissions = Characteristic.READABLE | (Characteristic.WRITEABLE if properties & P.WRITE else 0)
        characteristic = Characteristic(uuid, properties, permissions, value)
        if properties & (P.NOTIFY | P.INDICATE):
            # The server adds a CCCD only when there is none; this one carries the cuff's security.
            characteristic.descriptors = [Descriptor(
                GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, self.cccd_permissions,
                self.server.make_descriptor_value(characteristic))]
        self.by_uuid[uuid] = characteristic
        return characteristic

    def _blood_pressure(self, cuff: Cuff):
        return [self._make('2A35', P.INDICATE), self._make('2A36', P.NOTIFY), self._make('2A49', P.READ, cuff.feature)]

    def _heart_rate(self, cuff: Cuff):
        return [self._make('2A37', P.NOTIFY), self._make('2A38', P.READ, bytes([WRIST])), self._make('2A39', P.WRITE)]

    def _device_information(self, cuff: Cuff):
        return [self._make(uuid, P.READ, cuff.device_information[key].encode())
                for uuid, key in DEVICE_INFORMATION if key in cuff.device_information]

    def _current_time(self, cuff: Cuff):
        return [self._make('2A2B', P.READ | P.WRITE | P.NOTIFY, current_time(datetime.datetime.now()))]

    def _battery(self, cuff: Cuff):
        return [self._make('2A19', P.READ | P.NOTIFY, bytes([100]))]
