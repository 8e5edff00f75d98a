"""The independent check of cuffd's Omron support (docs/omron.md §7, docs/acceptance.md "The omblepy check"):
omblepy — a third party's Omron client (github.com/userx14/omblepy, fetched by scripts/omblepy-check into
ACCEPTANCE_OMBLEPY, run with bleak from ACCEPTANCE_OMBLEPY_VENV; never part of this repository) — and cuffd each
read a copy of the same emulated Omron cuff over the real bluetoothd, and must read the same records.

omblepy first, with cuffd stopped and a pairing agent up (pairing_dialog.py): `omblepy.py -p` bonds, programs its
key and starts and ends a transmission, which starts the cuff's timeline; once the timeline has run, `omblepy.py -n`
reads each user's unread records into userN.csv and marks them read. Because it marks them read, cuffd gets a copy
of the cuff as the scenario describes it: the radio restarts on a reset stack, and cuffd's part is the cuffctl
client's whole scenario, checks included. Last, per cuff, omblepy's rows must equal cuffd's readings: user,
systolic, diastolic, pulse, cuff time, body movement, irregular heartbeat (0x2A35 status bits 0 and 2, docs/omron.md
§6), each as often.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from collections import Counter

from . import omron
from .cuffctl_client import CuffctlClient
from .driver import wait_for
from .outcome import Outcome
from .scenario import Cuff, Scenario

RUN_LIMIT = 120        # seconds for one omblepy run (it retries a packet five times, 1 s apart)
BODY_MOVEMENT, IRREGULAR_PULSE = 0x01, 0x04


def row(user: int, systolic, diastolic, pulse, time_text: str, movement, irregular) -> tuple:
    return (user, int(float(systolic)), int(float(diastolic)), int(float(pulse)), time_text, bool(movement), bool(irregular))


def omblepy_rows(folder: str, users: int) -> Counter | None:
    """omblepy's userN.csv files (columns datetime, dia, sys, bpm, mov, ihb); None when one is missing."""
    rows = Counter()
    for user in range(1, users + 1):
        path = os.path.join(folder, f'user{user}.csv')
        if not os.path.exists(path):
            return None
        with open(path, newline='', encoding='utf-8') as file:
            rows.update(row(user, r['sys'], r['dia'], r['bpm'], r['datetime'].replace(' ', 'T'), int(r['mov']), int(r['ihb']))
                        for r in csv.DictReader(file))
    return rows


def cuffd_rows(readings: list[dict], address: str) -> Counter:
    """cuffd's readings of one cuff (`cuffctl readings --json`) in omblepy's terms."""
    return Counter(row(r['userID'], r['systolic'], r['diastolic'], r['pulseRate'], r['deviceTime'],
                       (r['status'] or 0) & BODY_MOVEMENT, (r['status'] or 0) & IRREGULAR_PULSE)
                   for r in readings if r['device']['address'].upper() == address.upper())


def listed(rows: Counter) -> str:
    return '; '.join(f'user {u} {s}/{d} pulse {p} {t}{" mov" if m else ""}{" ihb" if i else ""}'
                     for u, s, d, p, t, m, i in sorted(rows.elements()))


class OmblepyClient:
    name = 'omblepy'

    def __init__(self):
        self.source = os.environ['ACCEPTANCE_OMBLEPY']
        self.python = os.path.join(os.environ['ACCEPTANCE_OMBLEPY_VENV'], 'bin', 'python')
        self.cuffd = CuffctlClient()

    def ready(self) -> bool:
        return self.cuffd.ready()

    def run(self, scenario: Scenario, radio) -> Outcome:
        outcome = Outcome(scenario.name, self.name)
        cuffs = [c for c in scenario.cuffs if c.vendor == 'omron']
        outcome.check('every cuff of the scenario is an Omron cuff', bool(cuffs) and len(cuffs) == len(scenario.cuffs),
                      '' if len(cuffs) == len(scenario.cuffs) else 'omblepy reads only Omron cuffs')
        subprocess.run(['systemctl', 'stop', 'cuffd.service'], check=False)     # omblepy alone with the cuff
        folder = os.path.join(os.getcwd(), f'{scenario.name}.omblepy')
        os.makedirs(folder, exist_ok=True)
        dialog = subprocess.Popen([sys.executable, '-m', 'acceptance.pairing_dialog', os.path.join(folder, 'bus.jsonl')],
                                  stdout=subprocess.PIPE, text=True)
        try:
            outcome.check('a pairing agent is the default agent, as the dialog a user confirms (pairing_dialog.py)',
                          dialog.stdout.readline().strip() == 'registered')
            read = {c.address: self._omblepy(scenario, c, os.path.join(folder, c.address.replace(':', '')), radio, outcome)
                    for c in cuffs}
        finally:
            dialog.terminate()
            dialog.wait(10)
        restarted = time.monotonic()
        if not radio.restart(self.cuffd.ready):
            outcome.check('the restarted radio brought the stack and cuffd up', False, 'not within the stack timeout')
            return outcome
        outcome.time('radio restart → stack up', time.monotonic() - restarted)
        stored = self.cuffd.run(scenario, radio)
        outcome.checks += [(f'cuffd: {name}', passed, detail) for name, passed, detail in stored.checks]
        outcome.timings.update({f'cuffd: {name}': seconds for name, seconds in stored.timings.items()})
        for cuff in cuffs:
            ours, theirs = cuffd_rows(self.cuffd.readings, cuff.address), read[cuff.address]
            outcome.check(f'{cuff.address}: omblepy read the records cuffd stored, per user', theirs == ours,
                          f'omblepy {listed(theirs)} | cuffd {listed(ours)}' if theirs is not None and theirs != ours
                          else f'{sum(ours.values())} records: {listed(ours)}' if theirs is not None
                          else 'omblepy wrote no CSV')
        return outcome

    def _omblepy(self, scenario: Scenario, cuff: Cuff, folder: str, radio, outcome: Outcome) -> Counter | None:
        """Pairs, waits for the cuff's timeline, downloads the unread records into `folder`; omblepy's rows, or None."""
        os.makedirs(folder, exist_ok=True)
        model = cuff.omron['model']
        for step, flag in (('pair', '-p'), ('download', '-n')):
            arguments = [flag, '-d', model, '-m', cuff.address]
            began = time.monotonic()
            status, output = self._call(folder, step, arguments)
            outcome.time(f'omblepy {flag}', time.monotonic() - began)
            outcome.check(f'omblepy {" ".join(arguments)} exits 0', status == 0,
                          '' if status == 0 else f'exit {status if status is not None else f"none within {RUN_LIMIT} s"}: '
                          f'{output.strip()[-400:]} (log {os.path.relpath(folder)}/{step}.log)')
            if status != 0:
                return None
            if step == 'pair':
                ran = wait_for(lambda: any(e['event'] == 'timeline-done' and e['cuff'] == cuff.address
                                             for e in radio.events()), scenario.length + 30)
                outcome.check(f'{cuff.address}: its timeline ran after omblepy ended its first transmission', ran)
        return omblepy_rows(folder, len(omron.MODELS[model].users))

    def _call(self, folder: str, step: str, arguments: list[str]) -> tuple[int | None, str]:
        """omblepy.py with its debug log, in `folder`, where it writes its CSVs and STEP.log; its model modules
        (deviceSpecific/, which it looks for in the working directory) come through PYTHONPATH. The exit
        status (None after RUN_LIMIT) and the log."""
        environment = {**os.environ, 'PYTHONPATH': os.path.join(self.source, 'deviceSpecific')}
        command = [self.python, os.path.join(self.source, 'omblepy.py'), '--loggerDebug', *arguments]
        path = os.path.join(folder, f'{step}.log')
        with open(path, 'w', encoding='utf-8') as log:
            try:
                status = subprocess.run(command, cwd=folder, env=environment, stdout=log, stderr=subprocess.STDOUT,
                                        timeout=RUN_LIMIT).returncode
            except subprocess.TimeoutExpired:
                status = None
        with open(path, encoding='utf-8') as log:
            return status, log.read()
