"""cuffd's structured journal entries (docs/journal.md), read the way a user would: `journalctl -u cuffd
MESSAGE_ID=… -o json`."""
from __future__ import annotations

import json
import subprocess

READING = '4f1c2a9e7b3d4c61a8e05d2b9c7f3e10'               # a reading was committed (or already stored)
MEASUREMENT_FAILED = '9b6e1d3f2a7c48e5b0d4c1a6f8e2b739'    # the cuff reported a failed measurement


def entries(message_id: str, since: float) -> list[dict]:
    """cuffd's entries with this MESSAGE_ID logged at or after `since` (CLOCK_MONOTONIC seconds)."""
    listed = subprocess.run(['journalctl', '-b', '-u', 'cuffd.service', f'MESSAGE_ID={message_id}', '-o', 'json',
                             '--no-pager'], capture_output=True, text=True)
    found = [json.loads(line) for line in listed.stdout.splitlines() if line.startswith('{')]
    return [e for e in found if monotonic(e) >= since]


def monotonic(entry: dict) -> float:
    return int(entry['__MONOTONIC_TIMESTAMP']) / 1e6
