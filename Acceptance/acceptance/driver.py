"""The scenario driver: `python3 -m acceptance.driver`, run by acceptance-driver.service in the guest.

For each scenario (ACCEPTANCE_SCENARIOS, paths) it resets the stack — cuffd and bluetoothd stopped,
cuffd's store and BlueZ's bonds wiped — starts the scenario's radio, whose hci0 makes udev pull in
bluetooth.target and with it bluetoothd and cuffd, lets the client (ACCEPTANCE_CLIENT: `cuffctl`, or
`bring-up` before cuffd exists, or `omblepy` for scripts/omblepy-check) run the scenario, stops the radio, and prints PASS or FAIL with
the checks and timings. Results go to results.json in the shared output folder.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from . import scenario as scenarios
from .events import read
from .outcome import Outcome

OUT = os.getcwd()
# Seconds from the radio's start to a running stack: importing Bumble under emulation takes 10–60 s.
STACK_TIMEOUT = 180


class Radio:
    """The scenario's radio process (acceptance.radio) and its event log."""

    def __init__(self, scenario_path: str, name: str):
        self.scenario_path, self.name = scenario_path, name
        self._start(f'{name}.radio.jsonl')

    def _start(self, log_name: str):
        self.log_path = os.path.join(OUT, log_name)
        self.log = open(self.log_path, 'w', encoding='utf-8')
        python = os.path.join(os.environ['ACCEPTANCE_VENV'], 'bin', 'python')
        self.process = subprocess.Popen([python, '-m', 'acceptance.radio', self.scenario_path],
                                        stdout=self.log, stderr=subprocess.STDOUT)

    def events(self) -> list[dict]:
        return read(self.log_path)

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()

    def restart(self, ready) -> bool:
        """Fresh copies of the scenario's cuffs on a reset stack (no store, no bonds), logged to
        NAME.restarted.radio.jsonl; True once bluetoothd and the client (`ready()`) are up again."""
        self.stop()
        reset()
        self._start(f'{self.name}.restarted.radio.jsonl')
        return wait_for(lambda: unit_active('bluetooth.service') and ready(), STACK_TIMEOUT)


def systemctl(*arguments: str):
    subprocess.run(['systemctl', *arguments], check=False)


def reset():
    """A clean stack: no cuffd, no bluetoothd, no store, no bonds."""
    systemctl('stop', 'cuffd.service', 'bluetooth.service')
    for folder in ('/var/lib/cuffd', '/var/lib/bluetooth'):
        if os.path.isdir(folder):
            subprocess.run(['find', folder, '-mindepth', '1', '-delete'], check=False)


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def unit_active(unit: str) -> bool:
    return subprocess.run(['systemctl', 'is-active', '--quiet', unit]).returncode == 0


def make_client(kind: str):
    if kind == 'cuffctl':
        from .cuffctl_client import CuffctlClient
        return CuffctlClient()
    if kind == 'omblepy':
        from .omblepy_client import OmblepyClient
        return OmblepyClient()
    import dbus
    import dbus.mainloop.glib
    from .bringup_client import BringUpClient
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    return BringUpClient(dbus.SystemBus())


def run_one(path: str, client) -> Outcome:
    started = time.monotonic()
    scenario = scenarios.load(path)
    reset()
    radio = Radio(path, scenario.name)
    outcome = None
    try:
        came_up = wait_for(lambda: unit_active('bluetooth.service') and client.ready(), STACK_TIMEOUT)
        up = time.monotonic() - started
        if not came_up:
            outcome = Outcome(scenario.name, client.name)
            outcome.check('hci0 pulled in bluetooth.target and the stack came up', False,
                          f'bluetooth.service or the client did not start within {STACK_TIMEOUT} s')
        else:
            outcome = client.run(scenario, radio)
            outcome.time('radio start → stack up', up)
            held = [e['seconds'] for e in radio.events() if e['event'] == 'held']
            if held:
                outcome.time('a measurement waited for its link', max(held))
    finally:
        radio.stop()
        if hasattr(client, 'log'):
            client.log.write(os.path.join(OUT, f'{scenario.name}.bus.jsonl'))
    outcome.seconds = time.monotonic() - started
    return outcome


def run_lifecycle(upgrade: str) -> Outcome:
    """The package upgraded, removed and purged while a strap streams (package_lifecycle.py); last, as it removes cuffd."""
    from . import package_lifecycle
    started = time.monotonic()
    reset()
    radio = Radio(package_lifecycle.strap_scenario(os.path.join(OUT, 'package-lifecycle.json')), 'package-lifecycle')
    try:
        outcome = package_lifecycle.run(upgrade, Outcome('package-lifecycle', 'cuffctl'))
    finally:
        radio.stop()
    outcome.seconds = time.monotonic() - started
    return outcome


def report(outcome: Outcome):
    print(f"{'PASS' if outcome.passed else 'FAIL'} {outcome.scenario} ({outcome.client}, {outcome.seconds:.1f} s)")
    for name, passed, detail in outcome.checks:
        if not passed or os.environ.get('ACCEPTANCE_VERBOSE'):
            print(f"    {'ok  ' if passed else 'FAIL'} {name}{': ' + detail if detail else ''}")
    if outcome.timings:
        print('    ' + ', '.join(f'{k} {v:.3f} s' for k, v in outcome.timings.items()))
    sys.stdout.flush()


def main():
    print(f'acceptance: guest up {time.monotonic():.1f} s after boot', flush=True)
    paths = os.environ['ACCEPTANCE_SCENARIOS'].split()
    client = make_client(os.environ.get('ACCEPTANCE_CLIENT', 'bring-up'))
    results = []
    for path in paths:
        try:
            outcome = run_one(path, client)
        except scenarios.ScenarioError as error:
            outcome = Outcome(os.path.basename(path).removesuffix('.json'), client.name)
            outcome.check('scenario file accepted', False, str(error))
        report(outcome)
        results.append(outcome.as_json())
        with open(os.path.join(OUT, 'results.json'), 'w', encoding='utf-8') as file:
            json.dump({'uptime': time.monotonic(), 'results': results}, file, indent=1)
    if os.environ.get('ACCEPTANCE_UPGRADE_PACKAGE'):
        outcome = run_lifecycle(os.environ['ACCEPTANCE_UPGRADE_PACKAGE'])
        report(outcome)
        results.append(outcome.as_json())
        with open(os.path.join(OUT, 'results.json'), 'w', encoding='utf-8') as file:
            json.dump({'uptime': time.monotonic(), 'results': results}, file, indent=1)
    subprocess.run(f'journalctl -b -o short-monotonic > {OUT}/journal.txt', shell=True, check=False)
    return 0 if all(r['passed'] for r in results) else 1


if __name__ == '__main__':
    sys.exit(main())
