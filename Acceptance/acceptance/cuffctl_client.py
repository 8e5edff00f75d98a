"""The real client: cuffd, driven with cuffctl as a user would (the contract in docs/cuffctl.md).

For each cuff: `cuffctl pair ADDRESS [--passkey N]`; for a cuff whose timeline measures after it
first dropped the link, or that measures on the vendor start command (QardioArm), `cuffctl start
ADDRESS --timeout 60` at once, in the background (it shows the cuff pressure as it comes, then the
reading, and exits 0 once a new reading is committed). Then `cuffctl readings --json` must come to
equal the scenario's `expect`, the journal must hold one structured entry per reading and one per
failed measurement (MESSAGE_IDs of docs/journal.md), and a cuff with a clock must have been set
(where it may be) and its readings timed by its clock's offset (clock_check.py).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections import Counter

from . import capture_check, clock_check, journal, rebond_check, status_names
from .outcome import Outcome
from .scenario import Scenario

CUFFCTL = '/usr/bin/cuffctl'
# cuffd commits a strap's values together, at most this many seconds after the first of them waits
# (HeartRateFlushInterval=, its default; docs/configuration.md): a wait for stored values must outlast it.
HEART_RATE_FLUSH_WINDOW = 120
STOP_LIMIT = 20.0     # seconds; generous for emulation
COMPARED = ('address', 'systolic', 'diastolic', 'pulseRate', 'userID', 'deviceTime')


def cuffctl(*arguments: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run([CUFFCTL, *arguments], capture_output=True, text=True, timeout=timeout)


def comparable(reading: dict, with_status: bool = True) -> tuple:
    """A stored reading (cuffctl readings --json) or an expected one, on the fields both have, and last the
    names of its status bits (a stored one's from `status`, an expected one's as listed), sorted, when asked."""
    if 'device' in reading:
        reading = {**reading, 'address': reading['device']['address'], 'status': status_names.names(reading.get('status'))}
    reading = {**reading, 'address': str(reading.get('address', '')).upper()}
    fields = tuple(float(v) if isinstance(v, (int, float)) and k not in ('userID',) else v
                   for k, v in ((k, reading.get(k)) for k in COMPARED))
    return fields + (tuple(sorted(reading['status'])),) if with_status else fields


def unmatched(expected: list[dict], stored: list[dict]) -> tuple[list[tuple], list[tuple]]:
    """The expected readings the store lacks and the stored ones nothing expected, each matched once. An expected
    reading without `status` is not checked for it; those with it are matched first, so that one without can
    then take any stored reading of the same values and no pairing that exists is missed."""
    left = [comparable(r) for r in stored]
    missing = []
    for reading in sorted(expected, key=lambda r: 'status' not in r):
        key = comparable(reading, with_status='status' in reading)
        match = next((i for i, have in enumerate(left) if have[:len(key)] == key), None)
        if match is None:
            missing.append(key)
        else:
            del left[match]
    return missing, left


def pressures(value: bytes) -> list[int]:
    """The three SFLOATs after the flags of a 0x2A35 or 0x2A36 value in mmHg, for finding them in
    `cuffctl start`'s output (scenarios use exponent 0)."""
    return [int.from_bytes(value[i:i + 2], 'little') & 0x0FFF for i in (1, 3, 5)]


class CuffctlClient:
    name = 'cuffctl'
    readings: list[dict] = []     # what `cuffctl readings --json` listed last (the omblepy check compares them)

    def ready(self) -> bool:
        return subprocess.run(['systemctl', 'is-active', '--quiet', 'cuffd.service']).returncode == 0

    def run(self, scenario: Scenario, radio) -> Outcome:
        outcome = Outcome(scenario.name, self.name)
        began = time.monotonic()
        starts = {}
        # scripts/acceptance --capture: each cuff captured while it pairs and is collected from (capture_check.py).
        captures = {c.address: capture_check.start(os.getcwd(), scenario, c) for c in scenario.cuffs} if os.environ.get('ACCEPTANCE_CAPTURE') else {}
        for cuff in scenario.cuffs:
            arguments = ['pair', cuff.address, '--timeout', '60']
            if cuff.passkey is not None:
                arguments += ['--passkey', f'{cuff.passkey:06d}']
            sent = time.monotonic()
            paired = cuffctl(*arguments)
            outcome.time('cuffctl pair', time.monotonic() - sent)
            outcome.check(f'cuffctl {" ".join(arguments)} exits 0', paired.returncode == 0,
                          f'exit {paired.returncode}: {paired.stderr.strip()[-300:]}')
            if cuff.measured_after_pairing:
                starts[cuff.address] = (time.monotonic(), subprocess.Popen(
                    [CUFFCTL, 'start', cuff.address, '--timeout', '60'],
                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        for cuff in scenario.cuffs:
            if cuff.address in starts:
                self._check_start(cuff, *starts[cuff.address], outcome)
        readings = self.readings = self._check_store(scenario, outcome, deadline=began + scenario.length + 60)
        self._check_heart_rates(scenario, outcome, deadline=began + scenario.length + HEART_RATE_FLUSH_WINDOW + 60)
        self._check_journal(scenario, radio, began, outcome)
        self._check_failures(scenario, began, outcome)
        events = radio.events()
        for cuff in scenario.cuffs:
            if '1805' in cuff.services:
                clock_check.check_clock_set(cuff, events, outcome)
                clock_check.check_reading_times(cuff, events, readings, outcome)
            if cuff.vendor == 'qardioArm':
                commands = [e['command'] for e in events if e['event'] == 'vendor-command' and e['cuff'] == cuff.address]
                outcome.check(f'{cuff.address}: cuffctl start sent the vendor start command', commands[:1] == ['start'],
                              f'commands {commands}')
            if cuff.forgets_bond_after_link:
                rebond_check.check_fresh_bonds(cuff, events, outcome)
            if cuff.address in captures:
                capture_check.check(os.getcwd(), scenario, cuff, captures[cuff.address], outcome)
        self._check_stop(outcome)
        return outcome

    def _check_stop(self, outcome: Outcome):
        """`systemctl stop cuffd` (SIGTERM) ends it well before systemd's own 90 s limit."""
        asked = time.monotonic()
        subprocess.run(['systemctl', 'stop', 'cuffd.service'], check=False)
        took = time.monotonic() - asked
        outcome.time('systemctl stop cuffd', took)
        killed = subprocess.run(['systemctl', 'show', '-P', 'Result', 'cuffd.service'], capture_output=True, text=True)
        outcome.check(f'cuffd stops on SIGTERM within {STOP_LIMIT:.0f} s', took < STOP_LIMIT and killed.stdout.strip() == 'success',
                      f'{took:.1f} s, result {killed.stdout.strip()}')

    def _check_start(self, cuff, started: float, process: subprocess.Popen, outcome: Outcome):
        try:
            output, _ = process.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        outcome.time('cuffctl start', time.monotonic() - started)
        outcome.check(f'cuffctl start {cuff.address} exits 0 with a new reading', process.returncode == 0,
                      f'exit {process.returncode}: {output.strip()[-300:]}')
        systolic, diastolic, _ = pressures(cuff.measured_after_pairing[0])
        outcome.check(f'cuffctl start {cuff.address} shows the measurement made after it started',
                      f'{systolic}/{diastolic} mmHg' in output, f'{systolic}/{diastolic} not in: {output.strip()[-300:]}')
        numbers = set(re.findall(r'\d+', output))
        notified = [pressures(s.value)[0] for s in cuff.timeline + cuff.on_start
                    if s.action == 'notify' and s.characteristic == '2A36']
        missing = [p for p in notified if str(p) not in numbers]
        outcome.check(f'cuffctl start {cuff.address} shows the cuff pressure as it comes', not missing,
                      f'{missing} mmHg not shown in: {output.strip()[-300:]}')

    def _check_store(self, scenario: Scenario, outcome: Outcome, deadline: float) -> list[dict]:
        """Waits for `cuffctl readings --json` to equal `expect`; returns what it listed last."""
        readings: list[dict] = []
        while True:
            listed = cuffctl('readings', '--json')
            if listed.returncode == 0:
                readings = json.loads(listed.stdout or '[]')
                if unmatched(scenario.expected_readings, readings) == ([], []) or time.monotonic() > deadline:
                    break
            elif time.monotonic() > deadline:
                break
            time.sleep(1)
        missing, unexpected = unmatched(scenario.expected_readings, readings)
        outcome.check('cuffctl readings --json equals expect', not missing and not unexpected,
                      f'missing {missing}, unexpected {unexpected}')
        return readings

    def _check_heart_rates(self, scenario: Scenario, outcome: Outcome, deadline: float):
        """Waits for `cuffctl heart-rate --json` to hold `expect.heartRates` samples, each once."""
        samples: list[dict] = []
        while True:
            listed = cuffctl('heart-rate', '--json')
            if listed.returncode == 0:
                samples = json.loads(listed.stdout or '[]')
                if len(samples) >= scenario.heart_rates or time.monotonic() > deadline:
                    break
            elif time.monotonic() > deadline:
                break
            time.sleep(1)
        identifiers = {s['syncIdentifier'] for s in samples}
        outcome.check(f'cuffctl heart-rate --json holds {scenario.heart_rates} samples, each once',
                      len(samples) == scenario.heart_rates and len(identifiers) == len(samples),
                      f'{len(samples)} samples, {len(identifiers)} distinct')

    def _check_failures(self, scenario: Scenario, began: float, outcome: Outcome):
        """A measurement the cuff reports as failed is an event, never a reading: one journal entry each."""
        logged = Counter(e.get('BP_DEVICE') for e in journal.entries(journal.MEASUREMENT_FAILED, began))
        outcome.check(f'journalctl -u cuffd holds {scenario.failed_measurements} "failed measurement" entries',
                      sum(logged.values()) == scenario.failed_measurements, f'journal {dict(logged)}')

    def _check_journal(self, scenario: Scenario, radio, began: float, outcome: Outcome):
        entries = [e for e in journal.entries(journal.READING, began)
                   if e.get('BP_OUTCOME') == 'stored']      # a re-sent record is logged as already-stored
        logged = Counter((e.get('BP_DEVICE'), float(e.get('BP_SYSTOLIC', 'nan')), float(e.get('BP_DIASTOLIC', 'nan')),
                          float(e.get('BP_PULSE_BPM', 'nan'))) for e in entries)
        expected = Counter((r['address'], float(r['systolic']), float(r['diastolic']), float(r['pulseRate']))
                           for r in scenario.expected_readings)
        outcome.check('journalctl -u cuffd holds one "stored" reading entry per reading', logged == expected,
                      f'journal {sorted(logged.elements())}')
        sent = [e for e in radio.events() if e['event'] == 'sent' and e['characteristic'] == '2A35']
        delays = []
        for entry in entries:
            committed = journal.monotonic(entry)
            before = [e['t'] for e in sent if e['cuff'] == entry.get('BP_DEVICE') and e['t'] <= committed]
            if before:
                delays.append(committed - before[-1])
        if delays:
            outcome.time('indication → committed (journal)', sorted(delays)[len(delays) // 2])
