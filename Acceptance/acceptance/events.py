"""The radio's event log: one JSON object per line on standard output, stamped with the guest's
CLOCK_MONOTONIC so the driver can line radio events up with bus signals and journal entries."""
import json
import time


def emit(event: str, cuff: str | None = None, **fields):
    print(json.dumps({'t': round(time.monotonic(), 4), 'event': event, 'cuff': cuff, **fields}), flush=True)


def read(path: str) -> list[dict]:
    """The events a radio wrote so far (a partial last line is skipped)."""
    events = []
    with open(path, encoding='utf-8') as file:
        for line in file:
            if line.startswith('{') and line.endswith('}\n'):
                events.append(json.loads(line))
    return events
