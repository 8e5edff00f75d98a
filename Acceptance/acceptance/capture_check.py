"""The capture round trip's guest half (`scripts/acceptance --capture`, docs/capture.md): while the cuffctl client
pairs a cuff and collects from it, `cuffctl capture ADDRESS --seconds N --output FILE` records the conversation over
the real bluetoothd; afterwards the capture must have exited 0, be a scenario of one recorded cuff, and hold none of
the original identity — the cuff's or the adapter's address (its text in any spelling, its six bytes in either
order), the cuff's serial number. The host replays the files over cuff-sim (capture_replay.py).
"""
from __future__ import annotations

import json
import os
import subprocess

from .outcome import Outcome
from .scenario import Cuff, Scenario

CUFFCTL = '/usr/bin/cuffctl'
# Seconds the capture follows a cuff beyond its timeline: the pairing, the provisioning and the last link's end.
MARGIN = 40


def path(out: str, scenario: Scenario, cuff: Cuff) -> str:
    return os.path.join(out, f'{scenario.name}.{cuff.address.replace(":", "")}.capture.json')


def start(out: str, scenario: Scenario, cuff: Cuff) -> subprocess.Popen:
    """`cuffctl capture` of `cuff`, lasting past its timeline; returns once cuffctl is on the bus and about to ask
    cuffd (its line `cuffctl: capturing …`), so the capture's call goes out before the pairing's."""
    seconds = int(scenario.length + MARGIN)
    process = subprocess.Popen([CUFFCTL, 'capture', cuff.address, '--seconds', str(seconds), '--output', path(out, scenario, cuff)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    process.first_line = process.stderr.readline()
    return process


def check(out: str, scenario: Scenario, cuff: Cuff, process: subprocess.Popen, outcome: Outcome):
    """The capture's exit, its file, and what it must not hold."""
    try:
        _, output = process.communicate(timeout=scenario.length + MARGIN + 60)
    except subprocess.TimeoutExpired:
        process.kill()
        _, output = process.communicate()
    output = process.first_line + output
    outcome.check(f'cuffctl capture {cuff.address} exits 0', process.returncode == 0,
                  f'exit {process.returncode}: {output.strip()[-300:]}')
    try:
        with open(path(out, scenario, cuff), encoding='utf-8') as file:
            text = file.read()
        cuffs = json.loads(text)['cuffs']
    except (OSError, ValueError, KeyError) as error:
        outcome.check(f'{cuff.address}: the capture is a scenario of one recorded cuff', False, repr(error))
        return
    outcome.check(f'{cuff.address}: the capture is a scenario of one recorded cuff',
                  len(cuffs) == 1 and 'recorded' in cuffs[0], f'{len(cuffs)} cuff(s)')
    found = leaks(text, cuff, scenario.adapter_address)
    outcome.check(f'{cuff.address}: the capture holds no original address or serial', not found, f'found {found}')


def leaks(text: str, cuff: Cuff, adapter: str) -> list[str]:
    """What of the original identity the capture's text holds: an address in any spelling, in a value's bytes in either
    order; the serial as a value, inside a value (6 characters or more), or in any text."""
    document = json.loads(text)
    values = [bytes.fromhex(v) for v in _hex_values(document)]
    strings = text.upper()
    found = []
    for address in (cuff.address, adapter):
        raw = bytes.fromhex(address.replace(':', ''))
        spellings = [address, address.replace(':', '-'), address.replace(':', '')]
        found += [s for s in spellings if s.upper() in strings]
        found += [f'{address} bytes' for value in values if raw in value or raw[::-1] in value][:1]
    serial = cuff.device_information.get('serial')
    if serial:
        encoded = serial.encode()
        found += [f'serial {serial} as a value' for value in values if value == encoded][:1]
        if len(serial) >= 6:
            found += [f'serial {serial} inside a value' for value in values if encoded in value][:1]
            found += [f'serial {serial} as text'] if serial.upper() in strings else []
    return found


def _hex_values(node) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == 'hex' and isinstance(v, str)] + [
            h for k, v in node.items() if k != 'hex' for h in _hex_values(v)]
    if isinstance(node, list):
        return [h for v in node for h in _hex_values(v)]
    return []
