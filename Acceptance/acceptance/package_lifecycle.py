"""The package's life on the real system (docs/packaging.md), run by the driver after the scenarios when
ACCEPTANCE_UPGRADE_PACKAGE names a newer build of cuffd's package (scripts/acceptance repacks the one it built
with a bumped version).

A heart-rate strap streams into cuffd installed from the package; while its values are being stored, the newer
package is installed over it with `apt-get install`. Every sample stored before the upgrade must still be there
after it, cuffd must run again at the new version and take the rest of the stream. Then `apt-get remove`: cuffd
stops, the store and the configuration stay. Then `apt-get purge`: both go, as docs/packaging.md says.
"""
from __future__ import annotations

import json
import os
import subprocess
import time

from .cuffctl_client import HEART_RATE_FLUSH_WINDOW, cuffctl
from .outcome import Outcome

STRAP = 'E8:3C:A1:07:6D:21'
STORE = '/var/lib/cuffd/health.sqlite'
CONFIGURATION = '/etc/cuffd/cuffd.conf'


def strap_scenario(path: str, seconds: int = 360) -> str:
    """Writes a strap streaming once a second for `seconds` (long enough to outlast an upgrade under emulation and
    two of cuffd's heart-rate batches, one either side of it)."""
    steps = [{'after': 0.5 + n, 'notify': '2A37', 'hex': f'06 {60 + n % 40:02X}'} for n in range(seconds)]
    scenario = {'adapter': {'address': '00:1A:7D:DA:71:13'},
                'cuffs': [{'address': STRAP, 'name': 'HRM-1', 'services': ['180D', '180A'], 'pairing': 'justWorks',
                           'deviceInformation': {'manufacturer': 'cuffd project', 'model': 'SIM-HR', 'serial': '0007'},
                           'timeline': steps}]}
    with open(path, 'w', encoding='utf-8') as file:
        json.dump(scenario, file)
    return path


def apt_get(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(['apt-get', '-y', '-o', 'Dpkg::Options::=--force-confdef', *arguments],
                          capture_output=True, text=True, timeout=300, env={**os.environ, 'DEBIAN_FRONTEND': 'noninteractive'})


def samples() -> list[str]:
    listed = cuffctl('heart-rate', '--json')
    return [s['syncIdentifier'] for s in json.loads(listed.stdout or '[]')] if listed.returncode == 0 else []


def active() -> bool:
    return subprocess.run(['systemctl', 'is-active', '--quiet', 'cuffd.service']).returncode == 0


def wait(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return False


def run(upgrade: str, outcome: Outcome) -> Outcome:
    """The strap's radio runs (the driver started it and reset the stack); the rest is here."""
    version = subprocess.run(['dpkg-deb', '-f', upgrade, 'Version'], capture_output=True, text=True).stdout.strip()
    outcome.check('cuffd runs from its package', wait(active, 60))
    paired = cuffctl('pair', STRAP, '--timeout', '60')
    outcome.check(f'cuffctl pair {STRAP} exits 0', paired.returncode == 0, paired.stderr.strip()[-300:])
    outcome.check('heart-rate values are being stored', wait(lambda: len(samples()) >= 8, HEART_RATE_FLUSH_WINDOW + 60))
    before = set(samples())

    started = time.monotonic()
    installed = apt_get('install', upgrade)
    outcome.time('apt-get install (upgrade)', time.monotonic() - started)
    outcome.check(f'apt-get install of {version} while values are stored exits 0', installed.returncode == 0,
                  (installed.stdout + installed.stderr).strip()[-400:])
    now = subprocess.run(['dpkg-query', '-W', '-f=${Version}', 'cuffd'], capture_output=True, text=True).stdout
    outcome.check(f'dpkg knows cuffd {version}', now == version, f'installed {now!r}')
    outcome.check('cuffd runs again after the upgrade', wait(active, 60))
    # The rest of the minute's values arrive through the upgraded cuffd.
    outcome.check('values stored before the upgrade are all still there, and more came after it',
                  wait(lambda: set(samples()) > before, HEART_RATE_FLUSH_WINDOW + 60), f'{len(before)} before, {len(samples())} after')

    removed = apt_get('remove', 'cuffd')
    outcome.check('apt-get remove cuffd exits 0', removed.returncode == 0, (removed.stdout + removed.stderr).strip()[-400:])
    outcome.check('remove stops cuffd', not active())
    outcome.check('remove keeps the store and the configuration', os.path.exists(STORE) and os.path.exists(CONFIGURATION),
                  f'store {os.path.exists(STORE)}, configuration {os.path.exists(CONFIGURATION)}')

    purged = apt_get('purge', 'cuffd')
    outcome.check('apt-get purge cuffd exits 0 and says it deletes the store', purged.returncode == 0 and '/var/lib/cuffd' in purged.stdout + purged.stderr,
                  (purged.stdout + purged.stderr).strip()[-400:])
    outcome.check('purge removes the store and the configuration', not os.path.exists('/var/lib/cuffd') and not os.path.exists('/etc/cuffd'))
    return outcome
