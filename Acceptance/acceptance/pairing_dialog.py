"""The pairing dialog a user confirms, for scripts/omblepy-check: `python3 -m acceptance.pairing_dialog LOG`.

omblepy calls no Pair: enabling the Omron cuff's receive channel makes the cuff ask for security (docs/omron.md §2),
and the kernel has bluetoothd confirm a pairing the peer started, Just Works too; bluetoothd asks the default agent
and, with none, refuses ("No agent available for request type 2"), so the cuff sees the pairing fail. On a desktop
the agent is the dialog the user accepts; omblepy's README says to keep `bluetoothctl` open on systems without one
and type `yes`. This is that agent (bluez_agent.Agent, which accepts): it prints `registered` once it is the
default agent, and on SIGTERM writes the bus log (bluetoothd's calls and signals) to LOG.
"""
import signal
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

from .bluez_agent import AGENT_PATH, Agent
from .bus_log import BLUEZ, BusLog


def main():
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    log = BusLog(bus)
    Agent(bus, log, {})
    manager = dbus.Interface(bus.get_object(BLUEZ, '/org/bluez'), 'org.bluez.AgentManager1')
    manager.RegisterAgent(dbus.ObjectPath(AGENT_PATH), 'KeyboardDisplay')
    manager.RequestDefaultAgent(dbus.ObjectPath(AGENT_PATH))
    print('registered', flush=True)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    loop.run()
    log.write(sys.argv[1])


if __name__ == '__main__':
    main()
