"""The Date Time field the health characteristics share (docs/reference/GATT-HEALTH.md §4 and §10; GSS "Date Time"):
year uint16, month, day, hours, minutes, seconds — a wall clock without a zone. Blood Pressure
Measurement 0x2A35 carries it as its Time Stamp; Current Time 0x2A2B starts with it.

Used by the radio (the cuff's clock) and by the driver (a reading's device time); no Bumble here.
"""
from __future__ import annotations

import datetime

LENGTH = 7
TIME_STAMP_FLAG = 0x02    # Blood Pressure Measurement flags bit 1 (BPS 1.0 §3.1)
PRESSURES = 6             # three SFLOATs (systolic, diastolic, mean) before the time stamp


def encode(moment: datetime.datetime) -> bytes:
    return moment.year.to_bytes(2, 'little') + bytes([moment.month, moment.day, moment.hour, moment.minute, moment.second])


def decode(value: bytes) -> datetime.datetime | None:
    """The calendar time of a Date Time, or None when it is not one (year 0 means "not known"; a year
    before 1582 is outside the field's range)."""
    if len(value) < LENGTH:
        return None
    year = int.from_bytes(value[:2], 'little')
    if not 1582 <= year <= 9999:
        return None
    try:
        return datetime.datetime(year, *value[2:LENGTH])
    except ValueError:
        return None


def measurement_time_stamp(measurement: bytes) -> datetime.datetime | None:
    """The Time Stamp of a Blood Pressure Measurement 0x2A35 value, when it has a known one."""
    if not measurement or not measurement[0] & TIME_STAMP_FLAG:
        return None
    return decode(measurement[1 + PRESSURES:1 + PRESSURES + LENGTH])
