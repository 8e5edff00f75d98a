"""A BPS 1.1 cuff's stored-record procedures (docs/reference/GATT-HEALTH.md §7–§8), as cuff-sim carries them out
(`BluezEmulator+RecordAccess.swift`, docs/cuff-sim.md): a write to RACP 0x2A52 needs indications on
0x2A52, a report also on 0x2B36 (else ATT 0xFD, "CCCD Improperly Configured"); while a procedure runs
only Abort is taken (else ATT 0xFE, "Procedure Already in Progress"). The write is answered first; then,
about 10 ms apart, a report indicates each selected record, oldest first, segment by segment on 0x2B36,
and the procedure ends with its response on 0x2A52. Reports leave the records in the cuff's memory, a
delete removes them; a lost link ends the procedure.
"""
from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from bumble.att import ATT_Error, ErrorCode

from . import racp_request, record_segments
from .events import emit
from .scenario import Cuff

RACP, RECORD = '2A52', '2B36'
INTERVAL = 0.010          # seconds between two indications: about one connection interval
ATT_PAYLOAD = 244         # the largest segment without `recordSegmentSize`: cuff-sim's MTU 247 − 3


class RecordAccess:
    """`send(uuid, value)` indicates and returns once confirmed; `subscribed(uuid)` says whether the host
    enabled indications on that characteristic."""

    def __init__(self, cuff: Cuff, send: Callable[[str, bytes], Awaitable[None]], subscribed: Callable[[str], bool]):
        self.cuff = cuff
        self.records = {record.sequence: record.value for record in cuff.records or ()}
        self.send = send
        self.subscribed = subscribed
        self.counter = 0                 # the next segment's rolling counter, carried on across records
        self.procedure: asyncio.Task | None = None

    def write(self, value: bytes):
        """A write to 0x2A52: refused with an ATT error, or taken and carried out after the response."""
        if not self.subscribed(RACP):
            raise ATT_Error(ErrorCode.CCCD_IMPROPERLY_CONFIGURED)
        request = racp_request.parse(value, list(self.records))
        if request.action == 'abort':
            self.link_lost()
        else:
            if request.action == 'report' and not self.subscribed(RECORD):
                raise ATT_Error(ErrorCode.CCCD_IMPROPERLY_CONFIGURED)
            if self.procedure is not None:
                raise ATT_Error(ErrorCode.PROCEDURE_ALREADY_IN_PROGRESS)
        emit('racp-written', self.cuff.address, value=value.hex(), action=request.action,
             sequences=list(request.sequences))
        if request.action == 'delete':
            for sequence in request.sequences:
                del self.records[sequence]
        self.procedure = asyncio.ensure_future(self._carry_out(request))

    def link_lost(self):
        if self.procedure is not None:
            self.procedure.cancel()
            self.procedure = None

    async def _carry_out(self, request: racp_request.Request):
        if request.action == 'report':
            for sequence in request.sequences:
                value = record_segments.recorded_value(self.records[sequence], self.cuff.feature)
                size = self.cuff.record_segment_size or ATT_PAYLOAD
                pieces = record_segments.segments(sequence, value, size, self.counter)
                self.counter = (self.counter + len(pieces)) & 0x3F
                for piece in pieces:
                    await asyncio.sleep(INTERVAL)
                    await self.send(RECORD, piece)
        await asyncio.sleep(INTERVAL)
        self.procedure = None
        await self.send(RACP, request.response)
