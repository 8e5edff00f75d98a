"""QardioArm's vendor control point in the Blood Pressure Service (docs/reference/GATT-HEALTH.md §12, reverse-engineered),
as cuff-sim plays it (`BluezEmulator+QardioArm.swift`, docs/cuff-sim.md): writing `F1 01` notifies
`F2 01` (inflating), plays the scenario's `onStart` steps (times counted from the write), then notifies
`F2 04` (completed); `F1 02` stops the script and notifies `F2 05` (aborted). A start while measuring and
a cancel while idle change nothing; any other value is refused with ATT 0x13, "Value Not Allowed".
"""
from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from bumble.att import ATT_Error, ErrorCode

from .events import emit

UUID = '583CB5B3-875D-40ED-9098-C39EB0C1983D'
START, CANCEL = bytes([0xF1, 0x01]), bytes([0xF1, 0x02])
INFLATING, COMPLETED, ABORTED = bytes([0xF2, 0x01]), bytes([0xF2, 0x04]), bytes([0xF2, 0x05])


class VendorControl:
    """`play()` runs the cuff's `onStart` script; `notify(value)` sends a phase on the control point."""

    def __init__(self, address: str, play: Callable[[], Awaitable[None]], notify: Callable[[bytes], Awaitable[None]]):
        self.address = address
        self.play = play
        self.notify = notify
        self.measurement: asyncio.Task | None = None

    def write(self, value: bytes):
        if value not in (START, CANCEL):
            raise ATT_Error(ErrorCode.VALUE_NOT_ALLOWED)
        emit('vendor-command', self.address, value=value.hex(), command='start' if value == START else 'cancel')
        if value == START and self.measurement is None:
            self.measurement = asyncio.ensure_future(self._measure())
        elif value == CANCEL and self.measurement is not None:
            self.measurement.cancel()
            self.measurement = None
            asyncio.ensure_future(self.notify(ABORTED))

    async def _measure(self):
        await self.notify(INFLATING)
        await self.play()
        self.measurement = None
        await self.notify(COMPLETED)
