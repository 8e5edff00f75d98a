"""The cuff's own clock on Current Time 0x2A2B (docs/reference/GATT-HEALTH.md §10; Current Time Service 1.1 §3.1), or
on a Date Time 0x2A08 an A&D cuff takes (§13.8), as cuff-sim keeps it (Sources/CuffSimulation/Emulator/CuffClock.swift):
a wall clock without a zone that runs on from the scenario's `clock.start` (or this machine's local time) and from
each write.

A value is the Date Time, the ISO day of week (1 Monday … 7 Sunday), Fractions256 and the Adjust Reason
of the last write. A write must be 10 bytes (else ATT "Invalid Attribute Value Length") and a known
calendar time with a day of week 0–7 (else "Value Not Allowed").
"""
from __future__ import annotations

import datetime
import time

from bumble.att import ATT_Error, ErrorCode

from . import gatt_time

LENGTH = 10


class CuffClock:
    def __init__(self, start: datetime.datetime | None):
        self.shown = start or datetime.datetime.now()
        self.set_at = time.monotonic()
        self.adjust_reason = 0

    def now(self) -> datetime.datetime:
        """What the clock shows now."""
        return self.shown + datetime.timedelta(seconds=time.monotonic() - self.set_at)

    def current_time(self) -> bytes:
        shown = self.now()
        fractions = min(255, shown.microsecond * 256 // 1_000_000)
        return gatt_time.encode(shown) + bytes([shown.isoweekday(), fractions, self.adjust_reason])

    def set(self, value: bytes) -> datetime.datetime:
        """Sets the clock from a written Current Time; returns what it shows then."""
        if len(value) != LENGTH:
            raise ATT_Error(ErrorCode.INVALID_ATTRIBUTE_LENGTH)
        written = gatt_time.decode(value)
        if written is None or value[7] > 7:
            raise ATT_Error(ErrorCode.VALUE_NOT_ALLOWED)
        self.shown = written + datetime.timedelta(seconds=value[8] / 256)
        self.set_at = time.monotonic()
        self.adjust_reason = value[9]
        return self.shown

    def set_date_time(self, value: bytes) -> datetime.datetime:
        """Sets the clock from a written Date Time (7 bytes, else "Invalid Attribute Value Length"; a known calendar
        time, else "Value Not Allowed"); returns what it shows then."""
        if len(value) != gatt_time.LENGTH:
            raise ATT_Error(ErrorCode.INVALID_ATTRIBUTE_LENGTH)
        written = gatt_time.decode(value)
        if written is None:
            raise ATT_Error(ErrorCode.VALUE_NOT_ALLOWED)
        self.shown = written
        self.set_at = time.monotonic()
        self.adjust_reason = 0x01
        return self.shown
