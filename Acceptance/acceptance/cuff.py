"""One emulated cuff on the Bumble link, scripted by its part of a scenario (docs/cuff-sim.md).

It does what cuff-sim's cuffs do, but over a real link to a real bluetoothd: it advertises from the
start; it pairs the way the scenario says (Bumble's SMP as responder: Just Works, or a passkey the cuff
"displays" and the host's agent must type); each time the host enables 0x2A35 indications it indicates
its stored records, and the first time it starts its timeline. A packet the cuff sends while nobody
is connected or subscribed goes nowhere, as on air — except a measurement, which waits for a link
(`_hold`). After a link loss it did not cause itself the cuff
advertises again (a real cuff stays awake a while); after its own `disconnect` step it is quiet until
an `advertise` step. A cuff with `records` answers RACP (record_access.py), one with the Current Time
service keeps its clock (cuff_clock.py), a QardioArm measures on its start command (qardio_arm.py), an Omron
cuff answers its own protocol from its memory (omron.py) and starts its timeline at its first end of transmission,
a Microlife cuff answers its commands on 0xFFF0 (microlife.py), a cuff that forgets its bond after each link drops its
keys when a link ends (bond_memory.py).
"""
from __future__ import annotations

import asyncio
import datetime
import time
from typing import Callable

from bumble import hci
from bumble.controller import Controller
from bumble.device import Device
from bumble.host import Host
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport.common import AsyncPipeSink

from .bond_memory import BondMemory
from .cuff_clock import CuffClock
from .events import emit
from .gatt_layout import GattLayout
from . import a_and_d, microlife, omron, qardio_arm
from .omron import OmronMemory
from .qardio_arm import VendorControl
from .record_access import RecordAccess
from .scenario import Cuff, Step

APPEARANCE_BLOOD_PRESSURE_ARM = 0x0381   # Assigned Numbers §2.6.3
HOLD = 30.0                              # seconds a measurement waits for a link


class DisplayedPasskey(PairingDelegate):
    """A cuff with a display and no keyboard: it shows the scenario's passkey."""

    def __init__(self, cuff: Cuff):
        super().__init__(io_capability=PairingDelegate.DISPLAY_OUTPUT_ONLY)
        self.cuff = cuff

    async def generate_passkey(self) -> int:
        return self.cuff.passkey

    async def display_number(self, number: int, digits: int) -> None:
        emit('passkey-displayed', self.cuff.address, passkey=f'{number:0{digits}d}')


def advertising_data(cuff: Cuff) -> bytes:
    """Flags (LE General Discoverable, no BR/EDR), the 16-bit service UUIDs, appearance (where the name leaves room),
    manufacturer data (its company identifier alone, when the scenario names one), name. An Omron cuff, and an
    A&D cuff in cooperation mode, advertise a 128-bit service instead, and the name shortened to what the 31 bytes
    leave (8 characters):
    Bumble's controller answers a scan request with the advertising data again, so a scan response cannot
    carry the rest; cuffd then finds the model in the Model Number String (docs/omron.md §6)."""
    flags = bytes([2, 0x01, 0x06])
    name = cuff.name.encode()
    if cuff.vendor == 'omronModern':
        return (flags + bytes([3, 0x03]) + bytes.fromhex(omron.MODERN_SERVICE)[::-1]
                + bytes([len(name) + 1, 0x09]) + name)
    if cuff.vendor == 'omron' or cuff.cooperation_mode:
        service = omron.SERVICE if cuff.vendor == 'omron' else a_and_d.SERVICE
        short = name[:31 - len(flags) - 18 - 2]
        return (flags + bytes([17, 0x07]) + bytes.fromhex(service.replace('-', ''))[::-1]
                + bytes([len(short) + 1, 0x09 if short == name else 0x08]) + short)
    uuids = b''.join(bytes.fromhex(u)[::-1] for u in cuff.services + ((microlife.SERVICE,) if cuff.microlife else ()))
    manufacturer = b'' if cuff.manufacturer_id is None else bytes([3, 0xFF]) + cuff.manufacturer_id.to_bytes(2, 'little')
    appearance = bytes([3, 0x19]) + APPEARANCE_BLOOD_PRESSURE_ARM.to_bytes(2, 'little')
    rest = manufacturer + bytes([len(name) + 1, 0x09]) + name
    data = flags + bytes([len(uuids) + 1, 0x03]) + uuids
    # A long name (an A&D UA-651BLE's) leaves no room for the appearance within the 31 bytes.
    return data + (appearance if len(data) + len(appearance) + len(rest) <= 31 else b'') + rest


class EmulatedCuff:
    def __init__(self, spec: Cuff, link, restart_bluez: Callable[[], None]):
        self.spec = spec
        self.restart_bluez = restart_bluez
        controller = Controller(spec.name, link=link, public_address=spec.address)
        self.device = Device(name=spec.name, host=Host(controller, AsyncPipeSink(controller)))
        self.clock = CuffClock(spec.clock.start if spec.clock else None) if '1805' in spec.services or spec.date_time_clock else None
        self.record_access = RecordAccess(spec, lambda uuid, value: self.send(uuid, value, indicate=True, kind='racp'),
                                          lambda uuid: uuid in self.subscribed)
        self.vendor_control = VendorControl(
            spec.address, lambda: self._play(spec.on_start, 'on-start'),
            lambda value: self.send(qardio_arm.UUID, value, indicate=False, kind='phase'))
        self.omron = OmronMemory(spec.address, spec.omron) if spec.omron else None
        self.microlife = microlife.MicrolifeCuff(spec.microlife) if spec.microlife else None
        self.layout = GattLayout(spec, self.device.gatt_server, self)
        self.layout.add_to(self.device)
        self.connection = None
        self.subscribed: set[str] = set()
        self.leaving = False          # the cuff drops the link itself: stay quiet afterwards
        self.switched_off = False     # a RACP write switched it off (switchesOffOnRecordRequest): never advertises again
        self.timeline_task: asyncio.Task | None = None
        self.trigger = '2A35' if '1810' in spec.services else '2A37'
        self.device.on('connection', self._connected)
        for uuid, characteristic in self.layout.by_uuid.items():
            characteristic.on('subscription', lambda _, notify, indicate, uuid=uuid: self._configured(uuid, notify, indicate))

    async def start(self):
        self.device.pairing_config_factory = lambda _: self._pairing_config()
        await self.device.power_on()
        self.bonds = BondMemory(self.spec.address, self.spec.forgets_bond_after_link, self.device.keystore)
        await self.advertise()

    def _pairing_config(self) -> PairingConfig:
        """Bonding with LE Secure Connections; MITM protection for a passkey cuff."""
        passkey = self.spec.pairing == 'passkey'
        delegate = DisplayedPasskey(self.spec) if passkey else PairingDelegate(PairingDelegate.NO_OUTPUT_NO_INPUT)
        return PairingConfig(sc=True, mitm=passkey, bonding=True, delegate=delegate,
                             identity_address_type=PairingConfig.AddressType.PUBLIC)

    async def advertise(self):
        if self.switched_off:
            emit('switched-off', self.spec.address, advertising=False)
            return
        if self.connection is None and not self.device.is_advertising:
            await self.device.start_advertising(
                own_address_type=hci.OwnAddressType.PUBLIC, advertising_data=advertising_data(self.spec),
                advertising_interval_min=100.0, advertising_interval_max=100.0)
            emit('advertising', self.spec.address)

    def _connected(self, connection):
        self.connection = connection
        self.leaving = False
        emit('connected', self.spec.address, peer=str(connection.peer_address))
        connection.on('disconnection', lambda reason: self._disconnected(connection, reason))
        connection.on('pairing', lambda keys: emit('paired', self.spec.address, authenticated=connection.authenticated))
        connection.on('pairing_failure', lambda reason: emit('pairing-failed', self.spec.address, reason=str(reason)))
        connection.on('connection_encryption_change', lambda: emit('encrypted', self.spec.address, on=bool(connection.encryption)))

    def _disconnected(self, connection, reason):
        if self.connection is not connection:
            return
        self.connection = None
        self.subscribed.clear()
        self.record_access.link_lost()
        if self.omron:
            self.omron.link_lost()
        emit('disconnected', self.spec.address, by='cuff' if self.leaving else 'host', reason=str(reason))
        asyncio.ensure_future(self.bonds.link_ended(str(connection.peer_address)))
        if not self.leaving:
            asyncio.ensure_future(self.advertise())

    def _configured(self, uuid: str, notify: bool, indicate: bool):
        enabled = notify or indicate
        (self.subscribed.add if enabled else self.subscribed.discard)(uuid)
        emit('configured', self.spec.address, characteristic=uuid, enabled=enabled)
        if enabled and uuid == self.trigger:
            asyncio.ensure_future(self._enabled())

    async def _enabled(self):
        if self.trigger == '2A35':
            for record in self.spec.stored_records:
                await self.send('2A35', record, indicate=True, kind='stored')
        if self.timeline_task is None:
            self.timeline_task = asyncio.ensure_future(self._play(self.spec.timeline, 'timeline'))

    async def _play(self, steps: tuple[Step, ...], script: str):
        """Runs a script — the timeline, or `onStart` after a vendor start — each step at its time."""
        loop = asyncio.get_running_loop()
        emit(f'{script}-started', self.spec.address)
        start = loop.time()
        for step in steps:
            await asyncio.sleep(max(0.0, start + step.after - loop.time()))
            if step.action == 'indicate':
                start += await self._hold(step)
            await self._do(step, script)
        emit(f'{script}-done', self.spec.address)

    # What the host's reads and writes do (gatt_layout.Behaviour).

    def read_clock(self, connection) -> bytes:
        value = self.clock.current_time()
        emit('clock-read', self.spec.address, shows=self.clock.now().isoformat())
        return value

    def write_clock(self, connection, value: bytes):
        shows = self.clock.set(value)
        emit('clock-set', self.spec.address, value=value.hex(), shows=shows.isoformat(),
             local=datetime.datetime.now().isoformat())

    def write_date_time(self, connection, value: bytes):
        shows = self.clock.set_date_time(value)
        emit('clock-set', self.spec.address, value=value.hex(), shows=shows.isoformat(),
             local=datetime.datetime.now().isoformat(), characteristic='2A08')

    def write_a_and_d(self, connection, value: bytes):
        """A&D's command characteristic: the disconnect request ends the link once the write is answered."""
        emit('a-and-d-command', self.spec.address, value=value.hex())
        if value == a_and_d.DISCONNECT_REQUEST and self.connection is connection:
            self.leaving = True
            asyncio.ensure_future(connection.disconnect())

    def write_microlife(self, connection, value: bytes):
        """Microlife's 0xFFF2: a whole command is answered on 0xFFF1 piece by piece; *disconnect* ends the link once
        the write is answered."""
        reaction = self.microlife.write(value)
        emit('microlife-command', self.spec.address, value=value.hex(), did=reaction.log)
        if reaction.notifications:
            asyncio.ensure_future(self._send_microlife(reaction.notifications))
        if reaction.disconnects and self.connection is connection:
            self.leaving = True
            asyncio.ensure_future(connection.disconnect())

    async def _send_microlife(self, pieces: list[bytes]):
        for piece in pieces:
            await self.send(microlife.NOTIFY, piece, indicate=False, kind='microlife')

    def write_record_access(self, connection, value: bytes):
        if self.spec.switches_off_on_record_request:
            # A Beurer BM48 switches itself off when asked for its history (docs/reference/GATT-HEALTH.md §13.9).
            emit('switched-off', self.spec.address, value=value.hex())
            self.switched_off = self.leaving = True
            asyncio.ensure_future(connection.disconnect())
            return
        self.record_access.write(value)

    def write_vendor_control(self, connection, value: bytes):
        self.vendor_control.write(value)

    def write_omron_unlock(self, connection, value: bytes):
        answer = self.omron.unlock_write(value)
        asyncio.ensure_future(self.send(omron.UNLOCK, answer, indicate=False, kind='omron'))

    def write_omron_channel(self, connection, channel: int, value: bytes):
        pieces = self.omron.channel_write(channel, value)
        if pieces:
            asyncio.ensure_future(self._send_pieces(pieces))
        if self.omron.transmissions and self.timeline_task is None:
            self.timeline_task = asyncio.ensure_future(self._play(self.spec.timeline, 'timeline'))

    async def _send_pieces(self, pieces: list[bytes]):
        """An Omron answer: piece k on receive channel k, in order (docs/omron.md §3); one piece on 0xFE4A."""
        for channel, piece in enumerate(pieces):
            await self.send(omron.RECEIVE[channel], piece, indicate=False, kind='omron')

    async def _hold(self, step: Step) -> float:
        """A measurement waits for a link that has indications on, up to HOLD seconds, as a real cuff
        keeps its record until a host takes it; the rest of the script moves by the time waited. (On
        the emulated stack a value sent without a link is dropped; here bluetoothd's own pace, which
        load slows, would otherwise decide.)"""
        loop = asyncio.get_running_loop()
        began = loop.time()
        while (self.connection is None or step.characteristic not in self.subscribed) and loop.time() - began < HOLD:
            await asyncio.sleep(0.05)
        waited = loop.time() - began
        if waited > 0.05:
            emit('held', self.spec.address, characteristic=step.characteristic, seconds=round(waited, 3))
        return waited

    async def _do(self, step: Step, script: str):
        if step.action in ('notify', 'indicate'):
            # An indication waits for its confirmation; the script goes on meanwhile.
            asyncio.ensure_future(self.send(step.characteristic, step.value, indicate=step.action == 'indicate',
                                            kind=script))
        elif step.action == 'disconnect':
            if self.connection is not None:
                self.leaving = True
                await self.connection.disconnect()
        elif step.action == 'advertise':
            await self.advertise()
        elif step.action == 'measure':
            self.omron.measure(step.user, step.record)
        elif step.action == 'restartBluez':
            emit('restart-bluez', self.spec.address)
            self.restart_bluez()
        elif step.action == 'pressStart':
            # START pressed at its time, as cuff-sim without --manual-start plays it: the driver starts `cuffctl start`
            # right after pairing, before the first step (docs/cuff-sim.md, "START pressed by the driver").
            emit('start-pressed', self.spec.address)

    async def send(self, uuid: str, value: bytes, indicate: bool, kind: str):
        connection, characteristic = self.connection, self.layout.characteristic(uuid)
        if connection is None or uuid not in self.subscribed:
            emit('dropped', self.spec.address, characteristic=uuid, value=value.hex(), kind=kind)
            return
        # A measurement from a cuff with a clock carries what the clock showed, so the driver can check the
        # time cuffd gives the reading (the cuff's time stamp corrected by the clock's offset).
        clock = {'clock': self.clock.now().isoformat(), 'wall': time.time()} if self.clock and uuid == '2A35' else {}
        emit('sent', self.spec.address, characteristic=uuid, value=value.hex(), kind=kind, indicate=indicate, **clock)
        try:
            if indicate:
                await self.device.indicate_subscriber(connection, characteristic, value)
                emit('confirmed', self.spec.address, characteristic=uuid, value=value.hex())
            else:
                await self.device.notify_subscriber(connection, characteristic, value)
        except Exception as error:      # the link went down under the indication
            emit('unconfirmed', self.spec.address, characteristic=uuid, value=value.hex(), error=repr(error))
