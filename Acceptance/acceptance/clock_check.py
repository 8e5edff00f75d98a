"""The cuff clock over the real stack (docs/reference/GATT-HEALTH.md §10; docs/acceptance.md): what cuffd did to each
cuff's Current Time 0x2A2B, from the radio's events, and the time it gave each reading.

cuffd reads the clock, sets it to local time where the characteristic is writable, and keeps the offset
(its instant minus the cuff's wall clock); a reading's `time` is the cuff's time stamp plus that offset.
The radio logs with each measurement what the cuff's clock showed and the guest's time then, so the
expected `time` is that instant plus (time stamp − clock).
"""
from __future__ import annotations

import datetime

from . import gatt_time
from .outcome import Outcome
from .scenario import Cuff

TOLERANCE = 3.0     # seconds: the write and the read cross the emulated link under TCG


def check_clock_set(cuff: Cuff, events: list[dict], outcome: Outcome):
    """A writable clock was set to the guest's local time (on every link); a fixed one was never written."""
    written = [e for e in events if e['event'] == 'clock-set' and e['cuff'] == cuff.address]
    if not cuff.clock_writable:
        outcome.check(f'{cuff.address}: cuffd leaves a clock that cannot be set alone', not written,
                      f'written {[e["value"] for e in written]}')
        return
    errors = [abs((datetime.datetime.fromisoformat(e['shows']) - datetime.datetime.fromisoformat(e['local'])).total_seconds())
              for e in written]
    outcome.check(f'{cuff.address}: cuffd sets the cuff clock to local time', bool(errors) and max(errors) < TOLERANCE,
                  f'writes {[e["value"] for e in written]}, off by {errors} s')


def check_reading_times(cuff: Cuff, events: list[dict], readings: list[dict], outcome: Outcome):
    """Each time-stamped measurement's reading has the cuff's time stamp corrected by the clock's offset."""
    for sent in (e for e in events if e['event'] == 'sent' and e['cuff'] == cuff.address and 'clock' in e):
        stamp = gatt_time.measurement_time_stamp(bytes.fromhex(sent['value']))
        if stamp is None:
            continue
        offset = stamp - datetime.datetime.fromisoformat(sent['clock'])
        expected = datetime.datetime.fromtimestamp(sent['wall'], datetime.timezone.utc) + offset
        matching = [r for r in readings if r['device']['address'].upper() == cuff.address
                    and r.get('deviceTime') == stamp.isoformat()]
        shown = [datetime.datetime.fromisoformat(r['time']) for r in matching]
        errors = [abs((time - expected).total_seconds()) for time in shown]
        outcome.check(f'{cuff.address}: the reading stamped {stamp.isoformat()} has the time of the cuff clock\'s offset',
                      len(errors) == 1 and errors[0] < TOLERANCE,
                      f'expected {expected.isoformat()}, cuffctl readings shows {[r["time"] for r in matching]}')
