#!/usr/bin/env python3
"""Echo client: a third-party D-Bus client for interoperability tests.

The test suite points this script, which uses the python library dbus-fast,
at an ``Echo(v) -> v`` service: ``echo_peer.py`` or the echo object of
cuffd's Swift D-Bus layer.  It checks that values of every D-Bus type survive
a round trip through the other implementation unchanged, and measures call
and signal throughput.

Modes (all talk to ``--destination`` / ``--path`` / ``--interface`` on the
bus at ``--address``):

default
    For each entry of a built-in table (one entry per signature, each with
    several sample values, boundary values included) call ``Echo`` with each
    sample wrapped in a variant and require the reply variant to have the
    same signature and an equal value.  Doubles are compared bit for bit, so
    ``-0.0`` and NaN are checked too.  For ``h`` the read end of a fresh pipe
    is sent; the returned fd must be the same pipe (same inode, and a byte
    written to the original write end is read from it).  ``h`` needs unix fd
    passing, which is negotiated for ``unix:`` addresses only; on other
    transports that entry is reported as ``skip h``.  Prints one line per
    entry, ``ok SIGNATURE`` or ``FAIL SIGNATURE: detail``; exits 1 if any
    entry failed, else 0.
``--bench N``
    Times N sequential ``Echo`` calls with a ``u`` argument (after one
    untimed warm-up call) and prints ``calls_per_second=<float>``.
``--signals N``
    Subscribes to ``Tick`` with a match rule, calls ``EmitSignals(N, 16
    bytes)`` and waits (at most 60 s) until N ``Tick(u index, ay payload)``
    signals arrived, checking that indices run 0..N-1 in order and that the
    payload is intact.  Prints ``signals_per_second=<float>``, measured from
    the call to the arrival of the last signal.

Exit status: 0 on success, 1 on any failure (details on stderr or in the
``FAIL`` lines), 2 on bad usage.

Usage::

    echo_client.py --address ADDR --destination org.cuffd.Test.Peer \\
        --path /org/cuffd/Test --interface org.cuffd.Test.Echo1 \\
        [--bench N | --signals N]
"""

import argparse
import asyncio
import math
import os
import select
import struct
import sys
import time

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio import MessageBus

CALL_TIMEOUT = 60.0
SIGNAL_TIMEOUT = 60.0
SIGNAL_PAYLOAD = bytes(range(16))
UUID_HRS = "0000180d-0000-1000-8000-00805f9b34fb"
UUID_BLS = "00001810-0000-1000-8000-00805f9b34fb"

# One entry per signature; each sample value is echoed separately.  The
# values are written in dbus-fast's representation: structs as lists, ``ay``
# as bytes, variants as Variant.  ``h`` is handled by check_fd() instead.
CASES = [
    ("y", [0, 1, 0x7F, 0xFF]),
    ("b", [False, True]),
    ("n", [-(2**15), -1, 0, 2**15 - 1]),
    ("q", [0, 1, 2**16 - 1]),
    ("i", [-(2**31), -1, 0, 2**31 - 1]),
    ("u", [0, 1, 2**32 - 1]),
    ("x", [-(2**63), -1, 0, 2**63 - 1]),
    ("t", [0, 1, 2**64 - 1]),
    ("d", [0.0, -0.0, 1.5, -2.5e-300, 5e-324, 1.7976931348623157e308, math.inf, -math.inf, math.nan]),
    ("s", ["", "hello", "Grüße, ✓ \U0001F600", "x" * 4096]),
    ("o", ["/", "/org/bluez/hci0/dev_00_11_22_AA_BB_CC/service000a/char000b"]),
    ("g", ["", "y", "a{oa{sa{sv}}}", "(isv)a(yyay)"]),
    ("h", None),
    ("as", [[], [""], ["a", "bc", "ü"]]),
    ("ay", [b"", b"\x00", bytes(range(256))]),
    (
        "a{sv}",
        [
            {},
            {
                "Transport": Variant("s", "le"),
                "DuplicateData": Variant("b", False),
                "UUIDs": Variant("as", [UUID_BLS]),
                "RSSI": Variant("n", -60),
                "ManufacturerData": Variant("a{qv}", {0x0059: Variant("ay", b"\x01\x02")}),
            },
        ],
    ),
    (
        "a{oa{sa{sv}}}",
        [
            {},
            {
                "/org/bluez/hci0": {
                    "org.bluez.Adapter1": {
                        "Address": Variant("s", "00:11:22:33:44:55"),
                        "Powered": Variant("b", True),
                    },
                    "org.freedesktop.DBus.Properties": {},
                },
                "/org/bluez/hci0/dev_00_11_22_AA_BB_CC": {
                    "org.bluez.Device1": {
                        "UUIDs": Variant("as", [UUID_BLS, UUID_HRS]),
                        "RSSI": Variant("n", -42),
                        "ServicesResolved": Variant("b", False),
                    }
                },
            },
        ],
    ),
    ("(isv)", [[0, "", Variant("s", "")], [-7, "seven", Variant("(yu)", [1, 2])]]),
    ("v", [Variant("v", Variant("u", 42)), Variant("v", Variant("v", Variant("ay", b"\x01")))]),
    ("av", [[], [Variant("u", 1), Variant("s", "two"), Variant("ay", b"3"), Variant("av", [])]]),
    ("aay", [[], [b""], [b"\x01\x02", b"", b"\xff"]]),
    ("a{ys}", [{}, {0: "zero", 255: "max"}]),
    ("a(yyay)", [[], [[1, 2, b"\x03\x04"], [0, 0, b""]]]),
]


def canonical(value):
    """Return a comparable form of a dbus-fast value.

    Doubles become their IEEE-754 bytes (so -0.0 != 0.0 and NaN == NaN),
    booleans stay distinct from integers, structs and arrays become tuples,
    dicts become frozensets of pairs, variants keep their signature.
    """
    if isinstance(value, Variant):
        return ("v", value.signature, canonical(value.value))
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, float):
        return ("d", struct.pack("<d", value))
    if isinstance(value, (bytes, bytearray)):
        return ("ay", bytes(value))
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(canonical(item) for item in value))
    if isinstance(value, dict):
        return ("dict", frozenset((canonical(k), canonical(v)) for k, v in value.items()))
    return value


def close_fds(fds) -> None:
    for fd in fds or ():
        try:
            os.close(fd)
        except OSError:
            pass


def describe_error(reply: Message) -> str:
    text = reply.body[0] if reply.body and isinstance(reply.body[0], str) else ""
    return f"{reply.error_name}: {text}" if text else str(reply.error_name)


class EchoClient:
    """Calls on one echo object."""

    def __init__(self, bus: MessageBus, destination: str, path: str, interface: str) -> None:
        self.bus = bus
        self.destination = destination
        self.path = path
        self.interface = interface

    def message(self, member: str, signature: str = "", body=None, unix_fds=None) -> Message:
        return Message(
            destination=self.destination,
            path=self.path,
            interface=self.interface,
            member=member,
            signature=signature,
            body=body or [],
            unix_fds=unix_fds or [],
        )

    async def call(self, msg: Message, timeout: float = CALL_TIMEOUT) -> Message:
        """Send msg, return the METHOD_RETURN; raise RuntimeError on an error reply."""
        reply = await asyncio.wait_for(self.bus.call(msg), timeout)
        if reply.message_type is MessageType.ERROR:
            close_fds(reply.unix_fds)
            raise RuntimeError(describe_error(reply))
        return reply

    async def echo(self, variant: Variant, unix_fds=None) -> Message:
        return await self.call(self.message("Echo", "v", [variant], unix_fds))


async def check_value(client: EchoClient, signature: str, value) -> str | None:
    """Echo one value; return None if it came back intact, else a description."""
    sent = Variant(signature, value)
    try:
        reply = await client.echo(sent)
    except Exception as error:  # noqa: BLE001 - any failure is reported per case
        return f"{value!r}: {type(error).__name__}: {error}"
    close_fds(reply.unix_fds)
    if reply.signature != "v" or len(reply.body) != 1 or not isinstance(reply.body[0], Variant):
        return f"{value!r}: reply signature {reply.signature!r}, expected 'v'"
    received = reply.body[0]
    if received.signature != signature:
        return f"{value!r}: reply variant signature {received.signature!r}"
    if canonical(received.value) != canonical(value):
        return f"sent {value!r}, received {received.value!r}"
    return None


def read_byte(fd: int, timeout: float) -> bytes:
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        raise TimeoutError("nothing to read from the received fd")
    return os.read(fd, 1)


async def check_fd(client: EchoClient) -> str | None:
    """Echo the read end of a pipe and check that the same pipe comes back."""
    read_end, write_end = os.pipe()
    received_fds = []
    try:
        try:
            reply = await client.echo(Variant("h", 0), unix_fds=[read_end])
        except Exception as error:  # noqa: BLE001
            return f"{type(error).__name__}: {error}"
        received_fds = list(reply.unix_fds)
        if reply.signature != "v" or len(reply.body) != 1 or not isinstance(reply.body[0], Variant):
            return f"reply signature {reply.signature!r}, expected 'v'"
        received = reply.body[0]
        if received.signature != "h":
            return f"reply variant signature {received.signature!r}"
        index = received.value
        if not isinstance(index, int) or not 0 <= index < len(received_fds):
            return f"fd index {index!r} outside the {len(received_fds)} fd(s) received"
        fd = received_fds[index]
        if os.fstat(fd).st_ino != os.fstat(read_end).st_ino:
            return "received fd is not the pipe that was sent (inode differs)"
        os.write(write_end, b"\x5a")
        got = read_byte(fd, 2.0)
        if got != b"\x5a":
            return f"read {got!r} from the received fd, expected b'Z'"
        return None
    except OSError as error:
        return f"{type(error).__name__}: {error}"
    finally:
        close_fds([read_end, write_end, *received_fds])


async def run_table(client: EchoClient, fds_negotiated: bool) -> int:
    failures = 0
    for signature, samples in CASES:
        if signature == "h":
            if not fds_negotiated:
                print("skip h: unix fd passing is only negotiated on unix: addresses", flush=True)
                continue
            problems = [p for p in [await check_fd(client)] if p]
        else:
            problems = []
            for value in samples:
                problem = await check_value(client, signature, value)
                if problem:
                    problems.append(problem)
        if problems:
            failures += 1
            print(f"FAIL {signature}: {'; '.join(problems)}", flush=True)
        else:
            print(f"ok {signature}", flush=True)
    return 1 if failures else 0


async def run_bench(client: EchoClient, count: int) -> int:
    await client.echo(Variant("u", 0))  # warm-up: name resolution, first dispatch
    start = time.perf_counter()
    for index in range(count):
        reply = await client.echo(Variant("u", index))
        if reply.body[0].signature != "u" or reply.body[0].value != index:
            print(f"echo_client: call {index} returned {reply.body[0]!r}", file=sys.stderr)
            return 1
    elapsed = time.perf_counter() - start
    print(f"calls_per_second={count / elapsed:.1f}", flush=True)
    return 0


async def run_signals(client: EchoClient, count: int) -> int:
    loop = asyncio.get_running_loop()
    all_arrived = loop.create_future()  # set when the last Tick arrived, or on a bad Tick
    state = {"received": 0, "last_at": None, "error": None}

    def on_message(msg: Message):
        if (
            msg.message_type is not MessageType.SIGNAL
            or msg.path != client.path
            or msg.interface != client.interface
            or msg.member != "Tick"
            or all_arrived.done()
        ):
            return None
        expected = state["received"]
        if msg.signature != "uay" or msg.body[0] != expected or msg.body[1] != SIGNAL_PAYLOAD:
            state["error"] = f"Tick #{expected}: got ({msg.signature}) {msg.body!r}"
            all_arrived.set_result(None)
            return None
        state["received"] = expected + 1
        if state["received"] == count:
            state["last_at"] = time.perf_counter()
            all_arrived.set_result(None)
        return None

    client.bus.add_message_handler(on_message)
    rule = (
        f"type='signal',sender='{client.destination}',path='{client.path}',"
        f"interface='{client.interface}',member='Tick'"
    )
    try:
        await client.call(
            Message(
                destination="org.freedesktop.DBus",
                path="/org/freedesktop/DBus",
                interface="org.freedesktop.DBus",
                member="AddMatch",
                signature="s",
                body=[rule],
            )
        )
    except Exception as error:  # noqa: BLE001
        print(f"echo_client: AddMatch failed: {error}", file=sys.stderr)
        return 1

    start = time.perf_counter()
    emit = asyncio.ensure_future(
        client.call(client.message("EmitSignals", "uay", [count, SIGNAL_PAYLOAD]), SIGNAL_TIMEOUT)
    )
    # The reply to EmitSignals follows the last Tick, so normally all_arrived
    # completes first; stop early only if the call fails.
    await asyncio.wait({all_arrived, emit}, timeout=SIGNAL_TIMEOUT, return_when=asyncio.FIRST_EXCEPTION)
    if emit.done():
        emit_error = emit.exception()
    else:
        emit_error = None
        emit.cancel()
    if state["error"]:
        print(f"echo_client: {state['error']}", file=sys.stderr)
        return 1
    if emit_error is not None:
        print(f"echo_client: EmitSignals failed: {emit_error}", file=sys.stderr)
        return 1
    if not all_arrived.done():
        print(
            f"echo_client: timed out after {SIGNAL_TIMEOUT:.0f} s with "
            f"{state['received']} of {count} Tick signals",
            file=sys.stderr,
        )
        return 1
    print(f"signals_per_second={count / (state['last_at'] - start):.1f}", flush=True)
    return 0


async def run(args) -> int:
    fds_negotiated = args.address.startswith("unix:")
    try:
        bus = await MessageBus(bus_address=args.address, negotiate_unix_fd=fds_negotiated).connect()
    except Exception as error:  # noqa: BLE001
        print(f"echo_client: cannot connect to {args.address}: {error}", file=sys.stderr)
        return 1
    client = EchoClient(bus, args.destination, args.path, args.interface)
    try:
        if args.bench is not None:
            return await run_bench(client, args.bench)
        if args.signals is not None:
            return await run_signals(client, args.signals)
        return await run_table(client, fds_negotiated)
    except Exception as error:  # noqa: BLE001 - bench/signal call failures
        print(f"echo_client: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    finally:
        bus.disconnect()


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="D-Bus address of the bus")
    parser.add_argument("--destination", required=True, help="bus name of the echo service")
    parser.add_argument("--path", required=True, help="object path of the echo object")
    parser.add_argument("--interface", required=True, help="interface with Echo/EmitSignals")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--bench", type=positive_int, metavar="N", help="time N sequential Echo calls")
    mode.add_argument("--signals", type=positive_int, metavar="N", help="time N Tick signals")
    args = parser.parse_args()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
