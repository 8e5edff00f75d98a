"""Everything bluetoothd says on the system bus, in order, stamped with CLOCK_MONOTONIC.

The bring-up client answers its questions from this log (when did Connected turn true, which Value
arrived on which characteristic) and writes it out whole: docs/acceptance.md's facts about the real
bluetoothd come from these logs.
"""
import json
import time

import dbus

BLUEZ = 'org.bluez'
DEVICE = 'org.bluez.Device1'
CHARACTERISTIC = 'org.bluez.GattCharacteristic1'


def plain(value):
    """A dbus-python value as JSON: byte arrays as hex."""
    if isinstance(value, dbus.Array) and value.signature == 'y':
        return bytes(value).hex()
    if isinstance(value, (dbus.Array, list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (dbus.Dictionary, dict)):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (int, float)):
        return value
    return str(value)


class BusLog:
    def __init__(self, bus: dbus.Bus):
        self.entries: list[dict] = []
        self.characteristics: dict[str, str] = {}     # object path → 16-bit UUID
        self.listeners = []
        bus.add_signal_receiver(self._added, 'InterfacesAdded', 'org.freedesktop.DBus.ObjectManager', BLUEZ)
        bus.add_signal_receiver(self._removed, 'InterfacesRemoved', 'org.freedesktop.DBus.ObjectManager', BLUEZ)
        bus.add_signal_receiver(self._changed, 'PropertiesChanged', 'org.freedesktop.DBus.Properties', BLUEZ,
                                path_keyword='path')
        bus.add_signal_receiver(self._owner, 'NameOwnerChanged', 'org.freedesktop.DBus', 'org.freedesktop.DBus',
                                arg0=BLUEZ)

    def note(self, kind: str, path: str = '', **fields) -> dict:
        entry = {'t': round(time.monotonic(), 4), 'kind': kind, 'path': str(path), **fields}
        self.entries.append(entry)
        for listener in self.listeners:
            listener(entry)
        return entry

    def learn(self, path: str, interfaces: dict):
        if CHARACTERISTIC in interfaces:
            self.characteristics[str(path)] = short_uuid(interfaces[CHARACTERISTIC]['UUID'])

    def _added(self, path, interfaces):
        self.learn(path, interfaces)
        self.note('added', path, interfaces=sorted(str(i) for i in interfaces),
                  properties={str(i): plain(p) for i, p in interfaces.items() if i in (DEVICE, CHARACTERISTIC)})

    def _removed(self, path, interfaces):
        self.note('removed', path, interfaces=[str(i) for i in interfaces])

    def _changed(self, interface, changed, invalidated, path=None):
        fields = {'interface': str(interface), 'changed': plain(changed), 'invalidated': plain(invalidated)}
        if interface == CHARACTERISTIC and 'Value' in changed:
            fields['uuid'] = self.characteristics.get(str(path))
        self.note('changed', path, **fields)

    def _owner(self, name, old, new):
        self.note('owner', '', old=str(old), new=str(new))

    # Questions about what happened.

    def first(self, predicate, since: float = 0.0):
        return next((e for e in self.entries if e['t'] >= since and predicate(e)), None)

    def property_became(self, path: str, name: str, value, since: float = 0.0):
        return self.first(lambda e: e['kind'] == 'changed' and e['path'] == path
                          and e['changed'].get(name) == value, since)

    def values(self, device_path: str, uuid: str) -> list[dict]:
        """Every PropertiesChanged on Value of that characteristic of that device."""
        return [e for e in self.entries if e['kind'] == 'changed' and e.get('uuid') == uuid
                and e['path'].startswith(device_path + '/') and 'Value' in e['changed']]

    def write(self, path: str):
        with open(path, 'w', encoding='utf-8') as file:
            for entry in self.entries:
                file.write(json.dumps(entry) + '\n')


def short_uuid(uuid) -> str:
    text = str(uuid).upper()
    return text[4:8] if text.endswith('-0000-1000-8000-00805F9B34FB') else text


def long_uuid(short: str) -> str:
    return f'0000{short.lower()}-0000-1000-8000-00805f9b34fb'


def device_path(address: str, adapter: str = '/org/bluez/hci0') -> str:
    return f'{adapter}/dev_{address.replace(":", "_")}'
