#!/usr/bin/env python3
"""Echo peer: a third-party D-Bus service for interoperability tests.

The test suite runs this script on a private bus so that cuffd's Swift D-Bus
layer (and ``echo_client.py``) can exercise marshalling, unix fd passing and
signal delivery against an independent implementation of the protocol, the
python library dbus-fast.

The script connects to the bus at ``--address``, owns ``--name`` (default
``org.cuffd.Test.Peer``) and exports, at ``/org/cuffd/Test``, the interface
``org.cuffd.Test.Echo1``:

``Echo(v value) -> v``
    Returns the variant it was given: same signature, same value.  Calls that
    carry unix fds (a variant holding ``h``) are answered at message level
    with the received body and fd list unchanged, so the peer can close its
    copies of the fds once the reply has been written to the socket.
``EmitSignals(u count, ay payload)``
    Emits ``count`` signals ``Tick(u index, ay payload)`` from
    ``/org/cuffd/Test`` on ``org.cuffd.Test.Echo1`` as fast as the socket
    takes them (index 0 .. count-1), then returns.  The reply therefore
    follows the last ``Tick`` on the wire.
``Quit()``
    Replies, then makes the script exit with status 0.

Once the name is owned the script prints ``READY`` on stdout.  It exits 0 on
``Quit``, SIGTERM or SIGINT, and 1 if it cannot connect, cannot own the name,
or loses its bus connection.

Usage::

    echo_peer.py --address unix:path=/tmp/bus [--name org.cuffd.Test.Peer]
"""

import argparse
import asyncio
import os
import signal
import sys

from dbus_fast import Message, MessageType, NameFlag, RequestNameReply
from dbus_fast.aio import MessageBus
from dbus_fast.service import ServiceInterface, dbus_method, dbus_signal

OBJECT_PATH = "/org/cuffd/Test"
INTERFACE = "org.cuffd.Test.Echo1"
DEFAULT_NAME = "org.cuffd.Test.Peer"

# EmitSignals pauses after every SIGNAL_BATCH signals until the bus daemon
# has read everything sent so far (see flush()).  dbus-fast 5.2.0's asyncio
# writer treats EAGAIN from a full socket as a fatal error and drops the
# connection (same bug as python-dbus-next issue #153), so a burst must never
# outgrow the socket send buffer: 256 Ticks with a 16-byte payload are about
# 35 KB, far below the default 208 KB.  The pause also keeps the event loop
# responsive.
SIGNAL_BATCH = 256


class EchoInterface(ServiceInterface):
    """The exported ``org.cuffd.Test.Echo1`` interface."""

    def __init__(self, bus: MessageBus, quit_event: asyncio.Event) -> None:
        super().__init__(INTERFACE)
        self._bus = bus
        self._quit_event = quit_event

    @dbus_method()
    def Echo(self, value: "v") -> "v":  # noqa: F821 - D-Bus signature strings
        return value

    @dbus_method()
    async def EmitSignals(self, count: "u", payload: "ay") -> None:  # noqa: F821
        for index in range(count):
            self._bus.send(Message.new_signal(OBJECT_PATH, INTERFACE, "Tick", "uay", [index, payload]))
            if (index + 1) % SIGNAL_BATCH == 0:
                await flush(self._bus)

    @dbus_method()
    def Quit(self) -> None:
        # The reply is queued after this returns; main() flushes it before exiting.
        self._quit_event.set()

    @dbus_signal()
    def Tick(self, index: int, payload: bytes) -> "uay":  # noqa: F821
        # Declared for introspection; EmitSignals builds the messages itself.
        return [index, payload]


def make_fd_echo_handler(bus: MessageBus):
    """Return a message handler that answers ``Echo`` calls carrying unix fds.

    The reply reuses the call's body and fd list verbatim.  The received fds
    belong to this process; they are closed once the reply (which makes the
    kernel duplicate them into the caller) has been written.
    """

    def handle(msg: Message):
        if (
            msg.message_type is not MessageType.METHOD_CALL
            or not msg.unix_fds
            or msg.path != OBJECT_PATH
            or msg.interface not in (INTERFACE, None)
            or msg.member != "Echo"
            or msg.signature != "v"
        ):
            return None
        fds = list(msg.unix_fds)
        written = bus.send(Message.new_method_return(msg, "v", msg.body, fds))

        def close_fds(_future) -> None:
            for fd in fds:
                try:
                    os.close(fd)
                except OSError:
                    pass

        written.add_done_callback(close_fds)
        return True

    return handle


async def flush(bus: MessageBus) -> None:
    """Wait until the bus daemon has read everything queued so far.

    Messages leave in order and the daemon reads them in order, so once it
    has answered a call sent now, every message queued before it (a batch of
    Ticks, the reply to ``Quit``) has left this process's socket buffer.
    """
    await bus.call(
        Message(
            destination="org.freedesktop.DBus",
            path="/org/freedesktop/DBus",
            interface="org.freedesktop.DBus.Peer",
            member="Ping",
        )
    )


async def run(address: str, name: str) -> int:
    loop = asyncio.get_running_loop()
    quit_event = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, quit_event.set)

    negotiate_fds = address.startswith("unix:")
    try:
        bus = await MessageBus(bus_address=address, negotiate_unix_fd=negotiate_fds).connect()
    except Exception as error:  # noqa: BLE001 - report any connection failure
        print(f"echo_peer: cannot connect to {address}: {error}", file=sys.stderr)
        return 1

    bus.add_message_handler(make_fd_echo_handler(bus))
    bus.export(OBJECT_PATH, EchoInterface(bus, quit_event))

    reply = await bus.request_name(name, NameFlag.DO_NOT_QUEUE)
    if reply is not RequestNameReply.PRIMARY_OWNER:
        print(f"echo_peer: cannot own {name}: {reply.name}", file=sys.stderr)
        bus.disconnect()
        return 1
    print("READY", flush=True)

    quit_wait = asyncio.ensure_future(quit_event.wait())
    lost_wait = asyncio.ensure_future(bus.wait_for_disconnect())
    await asyncio.wait({quit_wait, lost_wait}, return_when=asyncio.FIRST_COMPLETED)
    if not quit_event.is_set():
        quit_wait.cancel()
        error = lost_wait.exception()
        detail = f": {error}" if error else ""
        print(f"echo_peer: lost the bus connection{detail}", file=sys.stderr)
        return 1

    lost_wait.cancel()
    try:
        await asyncio.wait_for(flush(bus), timeout=60)
    except Exception:  # noqa: BLE001 - the bus may already be gone at SIGTERM
        pass
    bus.disconnect()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", required=True, help="D-Bus address of the bus to join")
    parser.add_argument("--name", default=DEFAULT_NAME, help=f"bus name to own (default {DEFAULT_NAME})")
    args = parser.parse_args()
    return asyncio.run(run(args.address, args.name))


if __name__ == "__main__":
    sys.exit(main())
