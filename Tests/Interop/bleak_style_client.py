#!/usr/bin/env python3
"""Bleak-style BlueZ client: a scripted third-party org.bluez client for tests.

The test suite runs this script, which uses the python library dbus-fast,
against ``org.bluez`` on a private bus served by our emulated bluetoothd
``cuff-sim``.  It drives one blood-pressure measurement session with the
same D-Bus calls, in the same order, as the python BLE library bleak's BlueZ
backend does on Linux, so that cuff-sim is checked against the call pattern of
a widely used third-party client and not only against cuffd's own.

Sequence (step names as reported in ``steps``):

1. ``connect_bus``: connect to the bus at ``--address``.
2. ``add_match_rules``: AddMatch for ObjectManager.InterfacesAdded and
   InterfacesRemoved (``arg0path='/org/bluez/'``) and for
   Properties.PropertiesChanged (``path_namespace='/org/bluez'``), before
   anything is read, as bleak's manager does to avoid missing changes.
3. ``get_managed_objects``: ObjectManager.GetManagedObjects on ``/`` of
   ``org.bluez``; the reply builds an object mirror, which the signals then
   keep current.  The mirror is rebuilt from the reply inside the message
   handler, in wire order, so a signal that follows the reply is never
   applied to a stale mirror or lost.  Signals from any other sender than
   the reply's are ignored.
4. ``find_adapter``: the first ``org.bluez.Adapter1`` (hci0 before hci1).
5. ``set_discovery_filter``: ``{Transport: 'le', DuplicateData: false,
   UUIDs: [0x1810]}``.
6. ``start_discovery``.
7. ``find_device``: wait for a ``Device1`` under the adapter whose ``UUIDs``
   contain 0x1810 (already in GetManagedObjects, added by InterfacesAdded, or
   given the UUID later by PropertiesChanged).
8. ``stop_discovery``.
9. ``connect``: Device1.Connect().
10. ``services_resolved``: wait for ``ServicesResolved == true``; a
    ``Connected = false`` change or the removal of the device after Connect
    was called fails the step.
11. ``find_characteristic``: the ``GattCharacteristic1`` with UUID 0x2A35
    (Blood Pressure Measurement) under the device, waited for until the
    session's deadline: on a first connection BlueZ 5.66 turns
    ``ServicesResolved`` true before it exports the objects
    (docs/acceptance.md).
12. ``start_notify``: StartNotify on it.  Values are collected from the
    moment the call is sent.
13. ``collect_values``: wait until ``--count`` PropertiesChanged signals
    carrying ``Value`` for that characteristic arrived (every signal counts,
    also repeated values); the first ``--count`` are reported, as hex.
14. ``read_manufacturer``: ReadValue({}) on the Manufacturer Name String
    characteristic 0x2A29, only if the device has one.
15. ``stop_notify``.
16. ``disconnect``: Device1.Disconnect(), then wait for ``Connected = false``
    (or the device's removal), as bleak's disconnect() does.

On success one JSON object is printed on stdout::

    {"adapter": "/org/bluez/hci0", "device": "/org/bluez/hci0/dev_...",
     "address": "AA:BB:...", "name": "..." or null,
     "manufacturer": "..." or null, "values": ["1e7800...", ...],
     "steps": ["connect_bus", "add_match_rules", ...]}

and the exit status is 0.  On a D-Bus error or when the ``--timeout``
(seconds, for the whole session) runs out, one line naming the failed step
goes to stderr and the exit status is 2.  If Connect had been called, a
best-effort Disconnect is sent before exiting, as bleak does when a
connection attempt fails; discovery and notify sessions end by themselves
when the script leaves the bus.

Usage::

    bleak_style_client.py --address unix:path=/tmp/bus [--timeout 20] [--count 1]
"""

import argparse
import asyncio
import json
import sys

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio import MessageBus

BLUEZ = "org.bluez"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
PROPERTIES = "org.freedesktop.DBus.Properties"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"

UUID_BLOOD_PRESSURE_SERVICE = "00001810-0000-1000-8000-00805f9b34fb"
UUID_BLOOD_PRESSURE_MEASUREMENT = "00002a35-0000-1000-8000-00805f9b34fb"
UUID_MANUFACTURER_NAME = "00002a29-0000-1000-8000-00805f9b34fb"

MATCH_RULES = [
    "type='signal',interface='org.freedesktop.DBus.ObjectManager',"
    "member='InterfacesAdded',arg0path='/org/bluez/'",
    "type='signal',interface='org.freedesktop.DBus.ObjectManager',"
    "member='InterfacesRemoved',arg0path='/org/bluez/'",
    "type='signal',interface='org.freedesktop.DBus.Properties',"
    "member='PropertiesChanged',path_namespace='/org/bluez'",
]

# Time allowed for the best-effort Disconnect after a failure.
CLEANUP_TIMEOUT = 3.0


class StepFailed(Exception):
    """A step of the session failed; the message is the detail."""

    def __init__(self, step: str, detail: str) -> None:
        super().__init__(detail)
        self.step = step


def path_key(path: str):
    """Sort key putting /org/bluez/hci2 before /org/bluez/hci10."""
    return (len(path), path)


class BlueZMirror:
    """Client-side copy of org.bluez's objects, kept current by signals.

    ``objects[path][interface][property]`` holds the Variant last seen.
    Every applied change wakes the coroutines waiting in ``wait_until``.
    """

    def __init__(self) -> None:
        self.objects: dict[str, dict[str, dict[str, Variant]]] = {}
        self.owner: str | None = None  # unique name that answered GetManagedObjects
        self.managed_objects_serial: int | None = None
        self.loaded = False
        # Notification capture for one characteristic.
        self.watched_path: str | None = None
        self.wanted_values = 0
        self.values: list[str] = []
        # Set when, after arm_disconnect_watch(), the device drops its link or vanishes.
        self.watched_device: str | None = None
        self.device_lost: str | None = None
        self._changed = asyncio.Event()

    # -- queries -----------------------------------------------------------

    def prop(self, path: str, interface: str, name: str, default=None):
        variant = self.objects.get(path, {}).get(interface, {}).get(name)
        return default if variant is None else variant.value

    def paths_with(self, interface: str, under: str = "/") -> list[str]:
        prefix = under if under.endswith("/") else under + "/"
        return sorted(
            (p for p, ifaces in self.objects.items() if interface in ifaces and p.startswith(prefix)),
            key=path_key,
        )

    def characteristic(self, device: str, uuid: str) -> str | None:
        for path in self.paths_with(CHARACTERISTIC, device):
            if str(self.prop(path, CHARACTERISTIC, "UUID", "")).lower() == uuid:
                return path
        return None

    def arm_disconnect_watch(self, device: str) -> None:
        self.watched_device = device
        self.device_lost = None

    # -- updates -----------------------------------------------------------

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def on_message(self, msg: Message):
        """dbus-fast message handler; sees every incoming message in order."""
        if (
            msg.message_type is MessageType.METHOD_RETURN
            and self.managed_objects_serial is not None
            and msg.reply_serial == self.managed_objects_serial
        ):
            self.objects = {
                path: {iface: dict(props) for iface, props in ifaces.items()}
                for path, ifaces in msg.body[0].items()
            }
            self.owner = msg.sender
            self.loaded = True
            self._wake()
            return None  # let dbus-fast complete the pending call as usual
        if msg.message_type is not MessageType.SIGNAL or not self.loaded or msg.sender != self.owner:
            return None
        if msg.interface == OBJECT_MANAGER and msg.member == "InterfacesAdded" and msg.signature == "oa{sa{sv}}":
            path, interfaces = msg.body
            entry = self.objects.setdefault(path, {})
            for iface, props in interfaces.items():
                entry.setdefault(iface, {}).update(props)
        elif msg.interface == OBJECT_MANAGER and msg.member == "InterfacesRemoved" and msg.signature == "oas":
            path, interfaces = msg.body
            entry = self.objects.get(path, {})
            for iface in interfaces:
                entry.pop(iface, None)
            if not entry:
                self.objects.pop(path, None)
            if path == self.watched_device and DEVICE in interfaces and self.device_lost is None:
                self.device_lost = "the device object was removed"
        elif msg.interface == PROPERTIES and msg.member == "PropertiesChanged" and msg.signature == "sa{sv}as":
            iface, changed, invalidated = msg.body
            props = self.objects.get(msg.path, {}).get(iface)
            if props is not None:
                props.update(changed)
                for name in invalidated:
                    props.pop(name, None)
            if msg.path == self.watched_path and iface == CHARACTERISTIC and "Value" in changed:
                if len(self.values) < self.wanted_values:
                    self.values.append(bytes(changed["Value"].value).hex())
            if (
                msg.path == self.watched_device
                and iface == DEVICE
                and "Connected" in changed
                and changed["Connected"].value is False
                and self.device_lost is None
            ):
                self.device_lost = "Connected changed to false"
        else:
            return None
        self._wake()
        return None

    async def wait_until(self, predicate, deadline: float, step: str, what):
        """Return predicate()'s first truthy result; StepFailed at the deadline.

        ``what`` (a string, or a callable returning one, evaluated on
        timeout) completes the message "timed out waiting for ...".
        """
        loop = asyncio.get_running_loop()
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise StepFailed(step, f"timed out waiting for {what() if callable(what) else what}")
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass


class Session:
    """One scripted bleak-like session against org.bluez."""

    def __init__(self, address: str, timeout: float, count: int) -> None:
        self.address = address
        self.timeout = timeout
        self.count = count
        self.steps: list[str] = []
        self.mirror = BlueZMirror()
        self.bus: MessageBus | None = None
        self.deadline = 0.0
        self.connect_called_on: str | None = None  # device to disconnect if we fail

    def done(self, step: str) -> None:
        self.steps.append(step)

    def remaining(self, step: str) -> float:
        remaining = self.deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise StepFailed(step, "timed out")
        return remaining

    async def call(
        self,
        step: str,
        path: str,
        interface: str,
        member: str,
        signature: str = "",
        body=None,
        destination: str = BLUEZ,
        timeout: float | None = None,
        serial_hook=None,
    ) -> Message:
        msg = Message(
            destination=destination,
            path=path,
            interface=interface,
            member=member,
            signature=signature,
            body=body or [],
        )
        msg.serial = self.bus.next_serial()
        if serial_hook is not None:
            serial_hook(msg.serial)
        try:
            reply = await asyncio.wait_for(self.bus.call(msg), timeout or self.remaining(step))
        except asyncio.TimeoutError:
            raise StepFailed(step, f"timed out waiting for the reply to {interface}.{member}") from None
        except StepFailed:
            raise
        except Exception as error:  # noqa: BLE001 - connection loss and the like
            raise StepFailed(step, f"{interface}.{member}: {type(error).__name__}: {error}") from None
        if reply.message_type is MessageType.ERROR:
            text = reply.body[0] if reply.body and isinstance(reply.body[0], str) else ""
            raise StepFailed(step, f"{interface}.{member}: {reply.error_name}: {text}".rstrip(": "))
        return reply

    async def run(self) -> dict:
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.timeout
        mirror = self.mirror

        try:
            self.bus = await asyncio.wait_for(
                MessageBus(bus_address=self.address, negotiate_unix_fd=self.address.startswith("unix:")).connect(),
                self.remaining("connect_bus"),
            )
        except StepFailed:
            raise
        except Exception as error:  # noqa: BLE001
            raise StepFailed("connect_bus", f"{self.address}: {type(error).__name__}: {error}") from None
        self.bus.add_message_handler(mirror.on_message)
        self.done("connect_bus")

        for rule in MATCH_RULES:
            await self.call(
                "add_match_rules",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus",
                "AddMatch",
                "s",
                [rule],
                destination="org.freedesktop.DBus",
            )
        self.done("add_match_rules")

        def remember_serial(serial: int) -> None:
            mirror.managed_objects_serial = serial

        await self.call("get_managed_objects", "/", OBJECT_MANAGER, "GetManagedObjects", serial_hook=remember_serial)
        self.done("get_managed_objects")

        adapters = mirror.paths_with(ADAPTER)
        if not adapters:
            raise StepFailed("find_adapter", "no org.bluez.Adapter1 object")
        adapter = adapters[0]
        self.done("find_adapter")

        discovery_filter = {
            "Transport": Variant("s", "le"),
            "DuplicateData": Variant("b", False),
            "UUIDs": Variant("as", [UUID_BLOOD_PRESSURE_SERVICE]),
        }
        await self.call("set_discovery_filter", adapter, ADAPTER, "SetDiscoveryFilter", "a{sv}", [discovery_filter])
        self.done("set_discovery_filter")

        await self.call("start_discovery", adapter, ADAPTER, "StartDiscovery")
        self.done("start_discovery")

        def blood_pressure_device():
            for path in mirror.paths_with(DEVICE, adapter):
                uuids = [str(u).lower() for u in mirror.prop(path, DEVICE, "UUIDs", [])]
                if UUID_BLOOD_PRESSURE_SERVICE in uuids:
                    return path
            return None

        device = await mirror.wait_until(
            blood_pressure_device, self.deadline, "find_device", "a Device1 advertising 0x1810"
        )
        self.done("find_device")

        await self.call("stop_discovery", adapter, ADAPTER, "StopDiscovery")
        self.done("stop_discovery")

        mirror.arm_disconnect_watch(device)
        self.connect_called_on = device
        await self.call("connect", device, DEVICE, "Connect")
        self.done("connect")

        def services_resolved():
            if mirror.prop(device, DEVICE, "ServicesResolved", False) is True:
                return True
            if mirror.device_lost:
                raise StepFailed("services_resolved", f"{mirror.device_lost} before ServicesResolved")
            return False

        await mirror.wait_until(services_resolved, self.deadline, "services_resolved", "ServicesResolved = true")
        self.done("services_resolved")

        measurement = await mirror.wait_until(
            lambda: mirror.characteristic(device, UUID_BLOOD_PRESSURE_MEASUREMENT),
            self.deadline, "find_characteristic", f"GattCharacteristic1 0x2A35 under {device}")
        self.done("find_characteristic")

        mirror.wanted_values = self.count
        mirror.watched_path = measurement  # before StartNotify: capture from the first packet
        await self.call("start_notify", measurement, CHARACTERISTIC, "StartNotify")
        self.done("start_notify")

        await mirror.wait_until(
            lambda: len(mirror.values) >= self.count,
            self.deadline,
            "collect_values",
            lambda: f"{self.count} Value notification(s) on {measurement} (got {len(mirror.values)})",
        )
        self.done("collect_values")

        manufacturer = None
        manufacturer_path = mirror.characteristic(device, UUID_MANUFACTURER_NAME)
        if manufacturer_path is not None:
            reply = await self.call("read_manufacturer", manufacturer_path, CHARACTERISTIC, "ReadValue", "a{sv}", [{}])
            manufacturer = bytes(reply.body[0]).decode("utf-8", errors="replace")
            self.done("read_manufacturer")

        await self.call("stop_notify", measurement, CHARACTERISTIC, "StopNotify")
        self.done("stop_notify")

        mirror.arm_disconnect_watch(device)
        await self.call("disconnect", device, DEVICE, "Disconnect")
        self.connect_called_on = None
        await mirror.wait_until(
            lambda: mirror.device_lost or mirror.prop(device, DEVICE, "Connected", False) is False,
            self.deadline,
            "disconnect",
            "Connected = false",
        )
        self.done("disconnect")

        return {
            "adapter": adapter,
            "device": device,
            "address": mirror.prop(device, DEVICE, "Address"),
            "name": mirror.prop(device, DEVICE, "Name"),
            "manufacturer": manufacturer,
            "values": mirror.values[: self.count],
            "steps": self.steps,
        }

    async def cleanup(self) -> None:
        """After a failure: undo Connect if it may have taken effect; leave the bus."""
        if self.bus is None:
            return
        if self.connect_called_on is not None:
            try:
                await self.call(
                    "cleanup", self.connect_called_on, DEVICE, "Disconnect", timeout=CLEANUP_TIMEOUT
                )
            except StepFailed:
                pass
        self.bus.disconnect()


async def amain(args) -> int:
    session = Session(args.address, args.timeout, args.count)
    try:
        result = await session.run()
    except StepFailed as failure:
        print(f"bleak_style_client: step {failure.step} failed: {failure}", file=sys.stderr)
        await session.cleanup()
        return 2
    session.bus.disconnect()
    print(json.dumps(result), flush=True)
    return 0


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="D-Bus address of the bus where org.bluez lives")
    parser.add_argument("--timeout", type=positive_float, default=20.0, help="seconds for the whole session (default 20)")
    parser.add_argument("--count", type=positive_int, default=1, help="notifications to collect (default 1)")
    args = parser.parse_args()
    return asyncio.run(amain(args))


if __name__ == "__main__":
    sys.exit(main())
