"""The bring-up client: proves each scenario's cuffs over the real bluetoothd without cuffd.

It does, with python3-dbus, what cuffd does (docs/acceptance.md): a default agent, a GattProfile1
application for auto-connect, LE discovery, `Pair` and `Trusted` for each cuff, `StartNotify` on the
cuff's measurement characteristics whenever they appear, and after a bluetoothd restart all of it
again. It passes a scenario when every value the cuffs sent arrived as PropertiesChanged, in order,
once, and no scripted value was lost for want of a link. Its bus log holds the facts the suite
reports about BlueZ 5.66.
"""
from __future__ import annotations

import statistics

import dbus

from .bluez_agent import AGENT_PATH, APPLICATION_PATH, Agent, Application, Profile
from .bus_log import BLUEZ, CHARACTERISTIC, DEVICE, BusLog, device_path
from .glib_loop import Loop, Timeout, error_name
from .outcome import Outcome
from .scenario import Scenario

ADAPTER_PATH = '/org/bluez/hci0'
SUBSCRIBED = ('2A35', '2A36', '2A37')
CHECKED = ('2A35', '2A36')


class BringUpClient:
    name = 'bring-up'

    def __init__(self, bus: dbus.Bus):
        self.bus = bus
        self.loop = Loop()
        self.log = BusLog(bus)
        self.agent = Agent(bus, self.log, {})
        self.application = Application(bus, self.log, Profile(bus, self.log, ['1810', '180D']))
        self.sessions: set[str] = set()
        self.log.listeners.append(self._heard)

    def ready(self) -> bool:
        """bluetoothd is on the bus with a powered hci0."""
        try:
            return self._powered(self._object(ADAPTER_PATH, dbus.PROPERTIES_IFACE))
        except dbus.DBusException:
            return False

    def _current_owner(self) -> str:
        try:
            return str(self.bus.get_name_owner(BLUEZ))
        except dbus.DBusException:
            return ''

    def _object(self, path: str, interface: str):
        return dbus.Interface(self.bus.get_object(BLUEZ, path), interface)

    def _call(self, path: str, interface: str, method: str, *arguments, timeout: float = 30):
        """Every call runs the main loop while it waits, so signals are logged as they arrive."""
        return self.loop.call(getattr(self._object(path, interface), method), *arguments, timeout=timeout)

    def _set(self, path: str, interface: str, name: str, value):
        self._call(path, dbus.PROPERTIES_IFACE, 'Set', interface, name, value)

    # Registrations, redone whenever bluetoothd comes back (docs/reference/BLUEZ-DBUS.md §10).

    def _register(self, capability: str):
        self.owner = str(self.bus.get_name_owner(BLUEZ))
        self._call('/org/bluez', 'org.bluez.AgentManager1', 'RegisterAgent', dbus.ObjectPath(AGENT_PATH), capability)
        self._call('/org/bluez', 'org.bluez.AgentManager1', 'RequestDefaultAgent', dbus.ObjectPath(AGENT_PATH))
        self.log.note('client', method='RegisterAgent', capability=capability)
        self._call(ADAPTER_PATH, 'org.bluez.GattManager1', 'RegisterApplication',
                   dbus.ObjectPath(APPLICATION_PATH), dbus.Dictionary({}, signature='sv'))
        self.log.note('client', method='RegisterApplication replied')

    def _heard(self, entry: dict):
        if entry['kind'] == 'owner' and entry['new'] == '':
            self.sessions.clear()
        elif entry['kind'] == 'owner' and entry['new'] != self.owner:
            self.rejoined = True
        elif entry['kind'] == 'added' and CHARACTERISTIC in entry['interfaces']:
            self.wanted.add(entry['path'])
        elif entry['kind'] == 'changed' and entry['changed'].get('Connected') is False:
            self.dropped.add(entry['path'])

    def _subscribe(self, cuff_paths: list[str]):
        """StartNotify on every measurement characteristic of the cuffs that has no session yet."""
        for path, uuid in list(self.log.characteristics.items()):
            if uuid in SUBSCRIBED and path not in self.sessions and any(path.startswith(d + '/') for d in cuff_paths):
                self.sessions.add(path)
                self.log.note('client', path, method='StartNotify', uuid=uuid)
                try:
                    self._call(path, CHARACTERISTIC, 'StartNotify')
                    self.log.note('client', path, method='StartNotify replied', uuid=uuid)
                except dbus.DBusException as error:
                    self.sessions.discard(path)
                    self.log.note('client', path, method='StartNotify replied', uuid=uuid, error=error_name(error))

    def _known_objects(self):
        for path, interfaces in self._call('/', 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects').items():
            self.log.learn(path, interfaces)

    def run(self, scenario: Scenario, radio) -> Outcome:
        self.log.entries.clear()
        self.log.characteristics.clear()
        self.sessions.clear()
        self.wanted = set()
        self.dropped: set[str] = set()
        self.renewed: set[str] = set()
        self.rejoined = False
        self.owner = None
        outcome = Outcome(scenario.name, self.name)
        paths = [device_path(c.address) for c in scenario.cuffs]
        self.agent.passkeys = {p: c.passkey for p, c in zip(paths, scenario.cuffs) if c.passkey is not None}
        capability = 'KeyboardDisplay' if self.agent.passkeys else 'NoInputNoOutput'
        try:
            self._prepare(capability)
            self._pair(scenario, paths, outcome)
            self._listen(scenario, paths, radio, capability)
        except (Timeout, dbus.DBusException) as error:
            outcome.check('client ran to the end', False, error_name(error))
        self._judge(scenario, paths, radio, outcome)
        self._clean_up(paths)
        return outcome

    def _prepare(self, capability: str):
        adapter = self._object(ADAPTER_PATH, dbus.PROPERTIES_IFACE)
        self.loop.until(lambda: self._powered(adapter), 30, 'powered adapter hci0')
        self._register(capability)

    def _powered(self, adapter) -> bool:
        try:
            return bool(adapter.Get('org.bluez.Adapter1', 'Powered'))
        except dbus.DBusException:
            return False

    def _pair(self, scenario: Scenario, paths: list[str], outcome: Outcome):
        adapter = 'org.bluez.Adapter1'
        self._call(ADAPTER_PATH, adapter, 'SetDiscoveryFilter',
                   dbus.Dictionary({'Transport': 'le', 'DuplicateData': False}, signature='sv'))
        self.log.note('client', method='StartDiscovery')
        self._call(ADAPTER_PATH, adapter, 'StartDiscovery')
        for cuff, path in zip(scenario.cuffs, paths):
            self.loop.until(lambda: self.log.first(lambda e: e['kind'] == 'added' and e['path'] == path), 30,
                            f'{cuff.address} discovered')
            self.log.note('client', path, method='Pair')
            try:
                self._call(path, DEVICE, 'Pair', timeout=60)
                self.log.note('client', path, method='Pair replied')
            except dbus.DBusException as error:
                self.log.note('client', path, method='Pair replied', error=error_name(error))
                outcome.check(f'{cuff.address} paired', False, error_name(error))
                continue
            self._set(path, DEVICE, 'Trusted', dbus.Boolean(True))
            self.log.note('client', path, method='Trusted')
            self._known_objects()
            self._subscribe(paths)
        self.log.note('client', method='StopDiscovery')
        self._call(ADAPTER_PATH, adapter, 'StopDiscovery')

    def _listen(self, scenario: Scenario, paths: list[str], radio, capability: str):
        """Keeps sessions on every characteristic that appears, re-registers after a restart, until
        every cuff's timeline ran out (and a moment for the last values to arrive)."""
        deadline_wait = scenario.length + 90

        def done():
            current = self._current_owner() if self.rejoined else ''
            if current:     # bluetoothd is back; a late signal of an older one changes nothing
                self.rejoined = False
                if current != self.owner:
                    self._register_when_ready(capability)
            if self.wanted:
                self.wanted.clear()
                self._subscribe(paths)
            for path in [p for p in self.dropped if p in paths and p not in self.renewed]:
                self._renew_while_disconnected(path)
            finished = {e['cuff'] for e in radio.events() if e['event'] == 'timeline-done'}
            return all(c.address in finished for c in scenario.cuffs)
        self.loop.until(done, deadline_wait, 'end of every cuff timeline')
        self.loop.pause(2.0)

    def _renew_while_disconnected(self, device: str):
        """The first time a cuff drops the link, its 0x2A36 session is ended and started again while
        it is away: BlueZ must keep a session opened on a disconnected device and enable it when the
        cuff comes back (docs/reference/BLUEZ-DBUS.md §7); the 0x2A36 check then shows whether it did."""
        self.renewed.add(device)
        for path in [p for p, uuid in self.log.characteristics.items() if uuid == '2A36' and p.startswith(device + '/')]:
            for method in ('StopNotify', 'StartNotify'):
                self.log.note('client', path, method=method, uuid='2A36', connected=False)
                try:
                    self._call(path, CHARACTERISTIC, method)
                    self.log.note('client', path, method=f'{method} replied', uuid='2A36')
                except dbus.DBusException as error:
                    self.log.note('client', path, method=f'{method} replied', uuid='2A36', error=error_name(error))

    def _register_when_ready(self, capability: str):
        adapter = self._object(ADAPTER_PATH, dbus.PROPERTIES_IFACE)
        self.loop.until(lambda: self._powered(adapter), 30, 'adapter after bluetoothd restart')
        self._register(capability)
        self._known_objects()

    def _judge(self, scenario: Scenario, paths: list[str], radio, outcome: Outcome):
        events = radio.events()
        for cuff, path in zip(scenario.cuffs, paths):
            mine = [e for e in events if e['cuff'] == cuff.address]
            outcome.check(f'{cuff.address} timeline ran out', any(e['event'] == 'timeline-done' for e in mine))
            lost = [e for e in mine if e['event'] == 'dropped' and e['kind'] == 'timeline']
            outcome.check(f'{cuff.address} sent every scripted value over a link', not lost,
                          ', '.join(f"{e['characteristic']} {e['value']}" for e in lost))
            for uuid in CHECKED:
                sent = [e['value'] for e in mine if e['event'] == 'sent' and e['characteristic'] == uuid]
                received = [e['changed']['Value'] for e in self.log.values(path, uuid)]
                if sent or received:
                    outcome.check(f'{cuff.address} 0x{uuid}: {len(sent)} sent, each arrived once in order',
                                  sent == received, f'received {received}')
        self._time(scenario, paths, events, outcome)

    def _time(self, scenario: Scenario, paths: list[str], events: list[dict], outcome: Outcome):
        log = self.log
        start = log.first(lambda e: e.get('method') == 'StartDiscovery')
        found = log.first(lambda e: e['kind'] == 'added' and e['path'] == paths[0])
        pair = log.first(lambda e: e.get('method') == 'Pair' and e['path'] == paths[0])
        connected = log.property_became(paths[0], 'Connected', True)
        resolved = log.property_became(paths[0], 'ServicesResolved', True)
        paired = log.first(lambda e: e.get('method') == 'Pair replied' and e['path'] == paths[0])
        if start and found:
            outcome.time('discovery', found['t'] - start['t'])
        if pair and connected:
            outcome.time('connect', connected['t'] - pair['t'])
        if connected and resolved:
            outcome.time('services resolved', resolved['t'] - connected['t'])
        if pair and paired:
            outcome.time('pair', paired['t'] - pair['t'])
        latencies = []
        for cuff, path in zip(scenario.cuffs, paths):
            sent = [e for e in events if e['cuff'] == cuff.address and e['event'] == 'sent' and e['characteristic'] == '2A35']
            received = log.values(path, '2A35')
            latencies += [r['t'] - s['t'] for s, r in zip(sent, received)]
            woke = [e for e in events if e['cuff'] == cuff.address and e['event'] == 'advertising'][1:]
            for advert in woke:
                link = log.property_became(path, 'Connected', True, since=advert['t'])
                if link:
                    outcome.time('auto-connect', link['t'] - advert['t'])
                    break
        if latencies:
            outcome.time('indication → PropertiesChanged', statistics.median(latencies))
        notify = log.first(lambda e: e.get('method') == 'StartNotify' and e.get('uuid') == '2A35')
        first = log.first(lambda e: e.get('uuid') == '2A35' and e['kind'] == 'changed')
        if notify and first:
            outcome.time('StartNotify → first indication', first['t'] - notify['t'])

    def _clean_up(self, paths: list[str]):
        """Forgets the cuffs the way a user would (RemoveDevice), and unregisters."""
        for path in paths:
            self.log.note('client', path, method='RemoveDevice')
            try:
                self._call(ADAPTER_PATH, 'org.bluez.Adapter1', 'RemoveDevice', dbus.ObjectPath(path))
                self.log.note('client', path, method='RemoveDevice replied')
            except (Timeout, dbus.DBusException) as error:
                self.log.note('client', path, method='RemoveDevice replied', error=error_name(error))
        for path, interface, method, argument in ((ADAPTER_PATH, 'org.bluez.GattManager1', 'UnregisterApplication', APPLICATION_PATH),
                                                  ('/org/bluez', 'org.bluez.AgentManager1', 'UnregisterAgent', AGENT_PATH)):
            try:
                self._call(path, interface, method, dbus.ObjectPath(argument))
            except (Timeout, dbus.DBusException):
                pass
        self.loop.pause(0.5)
