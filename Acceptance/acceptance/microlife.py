"""A Microlife cuff's own service 0xFFF0 (docs/reference/GATT-HEALTH.md §13.12), as cuff-sim plays it
(`MicrolifeCuff.swift`, docs/cuff-sim.md): the host's writes to 0xFFF2 are joined into command frames (`4D FF`, a
big-endian length counting every byte after itself, command, parameters, checksum); each whole one is answered on
0xFFF1 with a frame (`4D 3A`, length, payload, checksum) in notifications of 20 bytes — *set date and time* and *set
patient ID* `81`, *get patient IDs* the selected user and both IDs, *get readings* 38 zero bytes and the memory's
10-byte records — and *disconnect* makes the cuff end the link. A frame with a bad start, length or checksum, or a
command not understood, is logged and not answered. `MicrolifeRadioParityTests` (Tests/CuffSimulationTests) holds
the bytes to cuff-sim's.
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field

SERVICE, NOTIFY, COMMAND = 'FFF0', 'FFF1', 'FFF2'
COMMAND_START, ANSWER_START = bytes([0x4D, 0xFF]), bytes([0x4D, 0x3A])
ACKNOWLEDGEMENT = bytes([0x81])
PIECE = 20                 # bytes per notification (the default ATT MTU's), as the host's writes
ID_LENGTH = 20             # a patient ID's bytes
HEAD = 38                  # the bytes of the readings answer before the first record, not interpreted
READINGS, DISCONNECT, PATIENT_IDS, SET_PATIENT_ID, SET_DATE_TIME = 0x00, 0x04, 0x05, 0x06, 0x0D


def frame(start: bytes, body: bytes) -> bytes:
    """`start`, the length of what follows, `body`, and the low 8 bits of the sum of every byte before the checksum."""
    length = len(body) + 1
    head = start + length.to_bytes(2, 'big') + body
    return head + bytes([sum(head) & 0xFF])


def id_field(text: str) -> bytes:
    """A patient ID as its 20 bytes: cut at 20, zero-padded."""
    return text.encode()[:ID_LENGTH].ljust(ID_LENGTH, b'\0')


def record(reading: dict) -> bytes:
    """One reading of the scenario's `microlife.readings` as the cuff stores it: systolic, diastolic, pulse, year − 2000,
    month, day, hour, minute, and two bytes not interpreted (0)."""
    time = datetime.datetime.fromisoformat(reading['time'])
    return bytes([reading['systolic'], reading['diastolic'], reading['pulse'], time.year - 2000, time.month, time.day,
                  time.hour, time.minute, 0, 0])


@dataclass
class Reaction:
    """What one write did: the answer in notifications (none while a command is incomplete), a line for the log,
    and whether the cuff now ends the link."""
    notifications: list[bytes] = field(default_factory=list)
    log: str | None = None
    disconnects: bool = False


class MicrolifeCuff:
    """The cuff's side of the protocol, from the scenario's `microlife` object (users and memory)."""

    def __init__(self, spec: dict):
        self.selected_user = int(spec.get('selectedUser', 1))
        self.ids = list(spec.get('patientIDs', ['', '']))
        self.memory = b''.join(record(r) for r in spec.get('readings', []))
        self.clock: datetime.datetime | None = None
        self.collected = b''

    def write(self, value: bytes) -> Reaction:
        """Takes one write to 0xFFF2: a frame is whole once its announced length has come, or wrong from its start."""
        self.collected += value
        collected = self.collected
        bad_start = len(collected) >= 2 and not collected.startswith(COMMAND_START)
        if not bad_start and (len(collected) < 4 or len(collected) < int.from_bytes(collected[2:4], 'big') + 4):
            return Reaction()
        self.collected = b''
        length = int.from_bytes(collected[2:4], 'big') + 4
        if bad_start or length < 5 or len(collected) != length or sum(collected[:-1]) & 0xFF != collected[-1]:
            return Reaction(log=f'Microlife command refused, no answer: {collected.hex()}')
        return self._answer(collected[4], collected[5:-1])

    def _answer(self, code: int, parameters: bytes) -> Reaction:
        def answered(payload: bytes, log: str) -> Reaction:
            whole = frame(ANSWER_START, payload)
            return Reaction([whole[i:i + PIECE] for i in range(0, len(whole), PIECE)], log)
        if code == SET_DATE_TIME and len(parameters) == 6:
            year, month, day, hour, minute, second = parameters
            try:
                self.clock = datetime.datetime(2000 + year, month, day, hour, minute, second)
                shows = self.clock.isoformat()
            except ValueError:
                shows = 'an impossible time'
            return answered(ACKNOWLEDGEMENT, f'Microlife clock set to {shows}')
        if code == PATIENT_IDS:
            payload = bytes([0, self.selected_user]) + id_field(self.ids[0]) + b'\0' + id_field(self.ids[1])
            return answered(payload, f'Microlife patient IDs sent (user {self.selected_user} selected)')
        if code == SET_PATIENT_ID and len(parameters) == ID_LENGTH + 2:
            text = parameters[1:ID_LENGTH + 1].replace(b'\0', b'').decode(errors='replace')
            self.ids[self.selected_user - 1] = text
            return answered(ACKNOWLEDGEMENT, f'Microlife patient ID of user {self.selected_user} set to {text!r}')
        if code == READINGS:
            return answered(bytes(HEAD) + self.memory, f'Microlife memory sent: {len(self.memory) // 10} reading(s)')
        if code == DISCONNECT:
            return Reaction(log='Microlife disconnect: the cuff ends the link', disconnects=True)
        return Reaction(log=f'Microlife command {bytes([code]).hex()}{parameters.hex()} not understood, no answer')
