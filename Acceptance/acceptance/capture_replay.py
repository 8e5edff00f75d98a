"""The capture round trip's host half (`scripts/acceptance --capture`, docs/capture.md): the captures the guest took
over the real bluetoothd (capture_check.py) replayed on the host, each scenario's as one scenario of recorded cuffs,
by cuff-sim on a private bus to a fresh cuffd, which must store exactly what the original scenario expects — under
the stand-in addresses the redaction gave the cuffs (as `CaptureReplay` builds it for the Swift round trip).

    python3 -m acceptance.capture_replay OUT BIN SCENARIO…

OUT: the suite's output folder (the captures, and where each replay's scenario and logs go); BIN: the folder holding
cuff-sim, cuffd and cuffctl (scripts/package's release build). Prints one PASS/FAIL line per scenario, then the count;
exit 0 when all passed.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

from . import capture_check, scenario as scenarios
from .cuffctl_client import unmatched
from .outcome import Outcome

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path={socket}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow user="*"/><allow own="*"/><allow send_type="method_call"/><allow send_type="signal"/>
<allow send_type="method_return"/><allow send_type="error"/><allow receive_type="method_call"/><allow receive_type="signal"/>
<allow receive_type="method_return"/><allow receive_type="error"/></policy></busconfig>
"""
READY_TIMEOUT = 60


def replay_document(path: str, captures: list[str]) -> dict:
    """The captures as one scenario on the first one's adapter, expecting what the original expected of each cuff at
    the address its capture gives it."""
    with open(path, encoding='utf-8') as file:
        original = json.load(file)
    recorded = []
    for capture in captures:
        with open(capture, encoding='utf-8') as file:
            recorded.append(json.load(file))
    document = {**recorded[0], 'cuffs': [c for r in recorded for c in r['cuffs']]}
    expect = json.dumps(original.get('expect', {}))
    for cuff, recording in zip(original['cuffs'], recorded):
        expect = expect.replace(cuff['address'].upper(), recording['cuffs'][0]['address'])
    document['expect'] = json.loads(expect)
    return document


class Collector:
    """A datagram socket read all the time (cuffd's NOTIFY_SOCKET and journal socket stand-ins)."""

    def __init__(self, path: str):
        self.texts: list[str] = []
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(path)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            self.texts.append(self.socket.recv(65536).decode(errors='replace'))


def wait_for(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def replay(out: str, binaries: str, path: str) -> Outcome:
    original = scenarios.load(path)
    outcome = Outcome(original.name, 'capture replay')
    captures = [capture_check.path(out, original, c) for c in original.cuffs]
    if not all(os.path.exists(c) for c in captures):
        outcome.check('the guest captured every cuff', False, f'missing {[c for c in captures if not os.path.exists(c)]}')
        return outcome
    document = replay_document(path, captures)
    replay_path = os.path.join(out, f'{original.name}.replay.json')
    with open(replay_path, 'w', encoding='utf-8') as file:
        json.dump(document, file, indent=1)
    with tempfile.TemporaryDirectory(prefix='cuffd-replay-') as folder:
        processes = []
        try:
            return _run(out, binaries, folder, replay_path, document, original, outcome, processes)
        finally:
            for process in reversed(processes):
                process.terminate()
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()


def _run(out, binaries, folder, replay_path, document, original, outcome, processes) -> Outcome:
    started = time.monotonic()
    with open(os.path.join(folder, 'bus.conf'), 'w', encoding='utf-8') as file:
        file.write(BUS_CONFIG.format(socket=os.path.join(folder, 'bus')))
    bus = subprocess.Popen(['dbus-daemon', f'--config-file={folder}/bus.conf', '--nofork', '--nopidfile', '--nosyslog',
                            '--print-address=1'], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    processes.append(bus)
    address = bus.stdout.readline().strip()
    simulator_log = os.path.join(out, f'{original.name}.replay.cuff-sim.log')
    with open(simulator_log, 'w') as log:
        processes.append(subprocess.Popen([f'{binaries}/cuff-sim', '--scenario', replay_path, '--bus', address],
                                          stdout=log, stderr=subprocess.STDOUT))
    ready = wait_for(lambda: 'org.bluez ready' in open(simulator_log, errors='replace').read(), READY_TIMEOUT)
    outcome.check('cuff-sim plays the captures', ready, open(simulator_log, errors='replace').read()[-300:])
    if not ready:
        return outcome
    notify, _ = Collector(f'{folder}/notify'), Collector(f'{folder}/journal')
    with open(f'{folder}/cuffd.conf', 'w', encoding='utf-8') as file:
        file.write('[Store]\nHeartRateFlushInterval=1\n')
    with open(os.path.join(out, f'{original.name}.replay.cuffd.log'), 'w') as log:
        processes.append(subprocess.Popen(
            [f'{binaries}/cuffd', '--bus', address, '--store', f'{folder}/health.sqlite', '--config', f'{folder}/cuffd.conf',
             '--journal-socket', f'{folder}/journal'], stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, 'NOTIFY_SOCKET': f'{folder}/notify'}))
    ready = wait_for(lambda: any('READY=1' in t for t in notify.texts) or processes[-1].poll() is not None, READY_TIMEOUT)
    outcome.check('the replay\'s cuffd is ready', ready and processes[-1].poll() is None)
    if not outcome.passed:
        return outcome

    def cuffctl(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([f'{binaries}/cuffctl', *arguments, '--bus', address], capture_output=True, text=True, timeout=120)

    for cuff, recorded in zip(original.cuffs, document['cuffs']):
        paired = cuffctl('pair', recorded['address'], '--timeout', '60')
        outcome.check(f'cuffctl pair {recorded["address"]} exits 0', paired.returncode == 0, paired.stderr.strip()[-300:])
        if cuff.on_start:     # QardioArm: the replay measures on cuffd's start command again
            start = cuffctl('start', recorded['address'], '--timeout', '60')
            outcome.check(f'cuffctl start {recorded["address"]} exits 0', start.returncode == 0, start.stderr.strip()[-300:])
    expected = tuple(document['expect'].get('readings', []))
    readings: list[dict] = []

    def stored() -> bool:
        nonlocal readings
        listed = cuffctl('readings', '--json')
        readings = json.loads(listed.stdout or '[]') if listed.returncode == 0 else readings
        return unmatched(expected, readings) == ([], [])
    wait_for(stored, original.length + 60)
    missing, unexpected = unmatched(expected, readings)
    outcome.check('the replay stores exactly what the original expects', not missing and not unexpected,
                  f'missing {missing}, unexpected {unexpected}')
    outcome.seconds = time.monotonic() - started
    return outcome


def main():
    out, binaries, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    outcomes = [replay(out, binaries, path) for path in paths]
    for outcome in outcomes:
        print(f"{'PASS' if outcome.passed else 'FAIL'} {outcome.scenario} (capture replay over cuff-sim, {outcome.seconds:.1f} s)")
        for name, passed, detail in outcome.checks:
            if not passed or os.environ.get('ACCEPTANCE_VERBOSE'):
                print(f"    {'ok  ' if passed else 'FAIL'} {name}{': ' + detail if detail and not passed else ''}")
    passed = sum(o.passed for o in outcomes)
    print(f'capture replay: {passed} passed, {len(outcomes) - passed} failed')
    return 0 if passed == len(outcomes) else 1


if __name__ == '__main__':
    sys.exit(main())
