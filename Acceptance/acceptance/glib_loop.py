"""Waiting on the bus from straight-line code: runs the GLib main loop until a condition holds."""
import time

import dbus
from gi.repository import GLib


class Timeout(Exception):
    pass


class Loop:
    """Each wait runs a main loop of its own, so a wait may nest in another (a call made while
    waiting for something else)."""

    def until(self, predicate, timeout: float, what: str):
        """Runs the loop until `predicate()` returns something truthy (checked every 20 ms); returns it."""
        deadline = time.monotonic() + timeout
        found = []
        loop = GLib.MainLoop()

        def check():
            result = predicate()
            if result or time.monotonic() > deadline:
                found.append(result)
                loop.quit()
                return False
            return True
        if (result := predicate()):
            return result
        GLib.timeout_add(20, check)
        loop.run()
        if not found or not found[0]:
            raise Timeout(f'no {what} within {timeout:.0f} s')
        return found[0]

    def pause(self, seconds: float):
        """Lets signals arrive for a while."""
        loop = GLib.MainLoop()
        GLib.timeout_add(int(seconds * 1000), lambda: loop.quit() and False)
        loop.run()

    def call(self, method, *arguments, timeout: float = 30):
        """Calls a D-Bus method without blocking the loop (bluetoothd may call back first, docs/reference/BLUEZ-DBUS.md
        §15.2); returns the reply, or raises the D-Bus error."""
        outcome = []
        method(*arguments, reply_handler=lambda *reply: outcome.append(('ok', reply)),
               error_handler=lambda error: outcome.append(('error', error)), timeout=timeout)
        self.until(lambda: outcome, timeout + 5, f'reply to {getattr(method, "_method_name", "call")}')
        kind, value = outcome[0]
        if kind == 'error':
            raise value
        return value[0] if len(value) == 1 else value if value else None


def error_name(error: Exception) -> str:
    if isinstance(error, dbus.DBusException):
        return f'{error.get_dbus_name()}: {error.get_dbus_message()}'
    return str(error)
