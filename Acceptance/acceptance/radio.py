"""The radio of one scenario: `python -m acceptance.radio SCENARIO [--transport T]`.

Opens the transport (default `vhci`: the kernel's hci_vhci, so hci0 appears when this starts and
goes when it ends), puts the host's controller with the scenario's adapter address and one Bumble
device per cuff on one virtual link, and runs until SIGTERM. Events go to standard output
(events.py). A `restartBluez` step restarts bluetoothd through systemd, as an administrator would.
"""
import argparse
import asyncio
import signal
import subprocess

from bumble.transport import open_transport

from . import scenario as scenarios
from .bumble_link import ConnectionAddressedLink, HostController
from .cuff import EmulatedCuff
from .events import emit


def restart_bluez():
    subprocess.Popen(['systemctl', '--no-block', 'restart', 'bluetooth.service'])


async def run(path: str, transport_name: str):
    scenario = scenarios.load(path)
    link = ConnectionAddressedLink()
    async with await open_transport(transport_name) as transport:
        HostController('hci0', host_source=transport.source, host_sink=transport.sink, link=link,
                       public_address=scenario.adapter_address)
        cuffs = [EmulatedCuff(spec, link, restart_bluez) for spec in scenario.cuffs]
        for cuff in cuffs:
            await cuff.start()
        emit('ready', adapter=scenario.adapter_address)
        stop = asyncio.Event()
        for number in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(number, stop.set)
        await stop.wait()
        emit('stopping')


def main():
    parser = argparse.ArgumentParser(prog='acceptance.radio')
    parser.add_argument('scenario')
    parser.add_argument('--transport', default='vhci:/dev/vhci')
    arguments = parser.parse_args()
    try:
        asyncio.run(run(arguments.scenario, arguments.transport))
    except scenarios.ScenarioError as error:
        raise SystemExit(f'acceptance.radio: {arguments.scenario}: {error}') from None


if __name__ == '__main__':
    main()
