"""An Omron cuff's own protocol (docs/omron.md, reverse-engineered from omblepy and hass-omron), as cuff-sim plays
it (`BluezEmulator+Omron.swift`, `OmronCuff.swift`, docs/cuff-sim.md "Omron"): the unlock characteristic's key
programming (only in pairing mode) and unlock, then packets in 16-byte pieces on four transmit channels, answered
in pieces on four receive channels from a memory laid out per model (§4, every model of `OmronModel.table`):
each user's ring of record slots (§5), the counter block and the clock block (§4a). A cuff of the 0xFE4A service
(`vendor` `omronModern`) takes the token unlock instead (§2) and carries each packet whole on one channel each way
(§3). The first end of transmission starts the cuff's timeline.
"""
from __future__ import annotations

from dataclasses import dataclass

from .events import emit

SERVICE = 'ECBE3980-C9A2-11E1-B1BD-0002A5D5C51B'
TRANSMIT = ('DB5B55E0-AEE7-11E1-965E-0002A5D5C51B', 'E0B8A060-AEE7-11E1-92F4-0002A5D5C51B',
            '0AE12B00-AEE8-11E1-A192-0002A5D5C51B', '10E1BA60-AEE8-11E1-89E5-0002A5D5C51B')
RECEIVE = ('49123040-AEE8-11E1-A74D-0002A5D5C51B', '4D0BF320-AEE8-11E1-A0D9-0002A5D5C51B',
           '5128CE60-AEE8-11E1-B84B-0002A5D5C51B', '560F1420-AEE8-11E1-8184-0002A5D5C51B')
UNLOCK = 'B305B680-AEE7-11E1-A730-0002A5D5C51B'
MODERN_SERVICE = 'FE4A'   # the 0xFE4A service: channel 0's transmit and receive UUIDs, the same unlock (§1)
PIECE = 16
START, START_ANSWER, READ, READ_ANSWER = 0x0000, 0x8000, 0x0100, 0x8100
WRITE, WRITE_ANSWER, END, END_ANSWER = 0x01C0, 0x81C0, 0x0F00, 0x8F00


def _fields(time: str) -> tuple[int, ...]:
    """A scenario time `YYYY-MM-DDTHH:MM:SS` as year, month, day, hour, minute, second."""
    date, clock = time.split('T')
    return tuple(int(x) for x in date.split('-') + clock.split(':'))


@dataclass(frozen=True)
class Clock:
    """§4a: a block of `size` bytes at `offset` from the settings address, year − 2000, month, day, hour, minute,
    second at `fields`, and at `check` the low 8 bits of the sum of the bytes before `summed`; other bytes 0."""
    offset: int
    size: int
    fields: tuple[int, ...]
    summed: int
    check: int

    def block(self, time: str) -> bytes:
        year, month, day, hour, minute, second = _fields(time)
        block = bytearray(self.size)
        for position, value in zip(self.fields, (year - 2000, month, day, hour, minute, second)):
            block[position] = value
        block[self.check] = sum(block[:self.summed]) & 0xFF
        return bytes(block)


CLOCKS = {
    'offset8': Clock(0x2C, 16, (8, 9, 10, 11, 12, 13), 14, 14),
    'classicOffset8': Clock(0x2C, 16, (9, 8, 11, 10, 13, 12), 14, 14),
    'mixed': Clock(0x14, 10, (3, 2, 5, 4, 7, 6), 8, 9),
    'linear10': Clock(0x14, 10, (2, 3, 4, 5, 6, 7), 8, 9),
}


@dataclass(frozen=True)
class Model:
    """docs/omron.md §4: layout `le16`, `le14` or `be14` (with its year bits and whether the IHB bit comes first);
    `counters` the counter words' byte order, `little` or `big`, or None where none are known (the cuff keeps
    them little-endian then, as cuff-sim does, and no host reads them); `clock` the clock block's layout (§4a,
    a key of CLOCKS) where it is known; `modern` for a model of the 0xFE4A service, `token` (the token unlock)
    or `none` (no unlock)."""
    layout: str
    users: tuple[int, ...]
    slots: int
    settings_read: int
    settings_write: int
    counters: str | None
    year_bits: int = 8
    irregular_first: bool = False
    clock: str | None = None
    modern: str | None = None

    @property
    def size(self) -> int:
        return 16 if self.layout == 'le16' else 14


MODELS = {
    'HEM-7150T': Model('le16', (0x0098,), 60, 0x0010, 0x0054, 'little'),
    'HEM-7151T': Model('le16', (0x0098,), 80, 0x0010, 0x0054, 'little', clock='offset8'),
    'HEM-7155T': Model('le16', (0x0098, 0x0458), 60, 0x0010, 0x0054, 'little', clock='offset8'),
    'HEM-7342T': Model('le16', (0x0098, 0x06D8), 100, 0x0010, 0x0054, 'little'),
    'HEM-7343T': Model('le16', (0x0098, 0x06D8), 100, 0x0010, 0x0054, 'little', clock='offset8'),
    'HEM-7361T': Model('le16', (0x0098, 0x06D8), 100, 0x0010, 0x0054, 'little', clock='offset8'),
    'HEM-7320T': Model('le14', (0x02AC, 0x05F4), 60, 0x0260, 0x0286, 'big', clock='linear10'),
    'HEM-7322T': Model('be14', (0x02AC, 0x0824), 100, 0x0260, 0x0286, 'big', clock='mixed'),
    'HEM-7600T': Model('be14', (0x02AC,), 100, 0x0260, 0x0286, 'big', clock='mixed'),
    'HEM-6232T': Model('be14', (0x02E8, 0x0860), 100, 0x0260, 0x02A4, 'big', year_bits=6, irregular_first=True,
                       clock='classicOffset8'),
    'HEM-7530T': Model('be14', (0x02E8,), 90, 0x0260, 0x02A4, None, year_bits=6, clock='classicOffset8'),
    'HEM-6161T': Model('be14', (0x02E8,), 30, 0x0260, 0x02A4, None, clock='classicOffset8'),
    'HEM-7142T2': Model('le14', (0x02E8,), 14, 0x0260, 0x02A4, None, clock='offset8', modern='token'),
    'HEM-716BT2': Model('le14', (0x02E8,), 30, 0x0260, 0x02A4, None, clock='offset8', modern='token'),
    'HEM-7146T2': Model('le14', (0x02E8,), 30, 0x0260, 0x02A4, None, clock='offset8', modern='none'),
    'HEM-7188T1': Model('le16', (0x01C4,), 30, 0x0010, 0x0054, None, clock='offset8', modern='token'),
}

# A code hass-omron's `device_catalog.py` lists among another model's `equivalent_model_ids` names that model's
# memory (docs/omron.md §4, `OmronModel.equivalentOf`).
for code in ('HEM-7280T', 'HEM-7281T', 'HEM-7282T', 'HEM-7321T'):
    MODELS[code] = MODELS['HEM-7322T']
MODELS['HEM-7183T1'] = MODELS['HEM-7188T1']


def encode_record(model: Model, record: dict) -> bytes:
    """A scenario record (systolic, diastolic, pulse, time, irregularHeartbeat, bodyMovement, cuffTooLoose,
    lowBattery, position) in the model's slot layout (docs/omron.md §5): the cuff-fit bit set unless the cuff was
    too loose; `hex` records are taken as they are."""
    if 'hex' in record:
        return bytes.fromhex(record['hex'].replace(' ', ''))
    year, month, day, hour, minute, second = _fields(record['time'])
    irregular, movement = bool(record.get('irregularHeartbeat')), bool(record.get('bodyMovement'))
    fit, battery, position = not record.get('cuffTooLoose'), bool(record.get('lowBattery')), record.get('position', 0)
    systolic = record['systolic'] - 25
    if model.layout in ('le16', 'le14'):
        word = hour | day << 5 | month << 10 | irregular << 14 | movement << 15
        time = second | minute << 6 | fit << 12 | battery << 13 | position << 14
        return bytes([systolic, record['diastolic'], record['pulse'], (year - 2000) & 0x3F,
                      word & 0xFF, word >> 8, time & 0xFF, time >> 8]) + bytes(model.size - 8)
    fields = [(record['diastolic'], 8), (systolic, 8), (0, 8 - model.year_bits), ((year - 2000), model.year_bits),
              (record['pulse'], 8), (irregular if model.irregular_first else movement, 1),
              (movement if model.irregular_first else irregular, 1), (month, 4), (day, 5), (hour, 5),
              (position, 2), (battery, 1), (fit, 1), (minute, 6), (second, 6)]
    value = 0
    for field, width in fields:
        value = value << width | (field & ((1 << width) - 1))
    return value.to_bytes(8, 'big') + bytes(6)


def packet(kind: int, address: int = 0, data: bytes = b'', count: int | None = None) -> bytes:
    """docs/omron.md §3: length, type, address (big-endian), count, data, status 0, a check byte making the XOR 0."""
    body = bytes([8 + len(data), kind >> 8, kind & 0xFF, address >> 8, address & 0xFF,
                  len(data) if count is None else count]) + data + b'\x00'
    check = 0
    for byte in body:
        check ^= byte
    return body + bytes([check])


class OmronMemory:
    """The cuff's memory and session: key, pairing mode, unlock state, pieces of the packet being written."""

    def __init__(self, address: str, spec: dict):
        self.address = address
        self.model = MODELS[spec['model']]
        self.pairing_mode = spec.get('pairingMode', True)
        self.refuses_token = spec.get('refusesToken', False)
        self.corrupt_reads = spec.get('corruptReads', 0)
        self.key: bytes | None = None
        self.programming = False
        self.unlocked = self.model.modern == 'none'   # §7: the bond alone opens its memory
        self.pieces: list[bytes | None] = [None] * 4
        self.transmissions = 0
        end = self.model.users[-1] + self.model.slots * self.model.size
        self.memory = bytearray(b'\xff' * max(end, self.model.settings_write + 0x40))
        self.next_slots = [0] * len(self.model.users)
        self.unread = [0] * len(self.model.users)
        for user, user_spec in enumerate(spec.get('users', [])):
            first, records = user_spec.get('firstSlot', 0), user_spec.get('records', [])
            for offset, record in enumerate(records):
                self._store(user, (first + offset) % self.model.slots, encode_record(self.model, record))
            self.next_slots[user] = (first + len(records)) % self.model.slots
            self.unread[user] = len(records) - user_spec.get('read', 0)
        self._write_counters()
        if self.model.clock and 'clock' in spec:
            clock = CLOCKS[self.model.clock]
            start = self.model.settings_read + clock.offset
            self.memory[start:start + clock.size] = clock.block(spec['clock'])

    def link_lost(self):
        self.unlocked = self.model.modern == 'none'
        self.programming = False
        self.pieces = [None] * 4

    def measure(self, user: int, record: dict):
        """A timeline `measure` step: the record goes into the user's (1-based) next slot, counted unread."""
        self._read_counters()
        index = user - 1
        self._store(index, self.next_slots[index], encode_record(self.model, record))
        self.next_slots[index] = (self.next_slots[index] + 1) % self.model.slots
        self.unread[index] = min(self.unread[index] + 1, self.model.slots)
        self._write_counters()
        emit('omron-measured', self.address, user=user)

    def unlock_write(self, value: bytes) -> bytes:
        """A write to the unlock characteristic; returns the notification that answers it (§2)."""
        # Imported here: the driver reads MODELS (scenario.py) with the guest's python3, which has no Bumble.
        from bumble.att import ATT_Error, ErrorCode
        if self.model.modern:
            return self._token_write(value)
        if len(value) != 17:
            raise ATT_Error(ErrorCode.INVALID_ATTRIBUTE_LENGTH)
        command, key = value[0], bytes(value[1:])
        if command == 0x02:
            self.programming = self.pairing_mode
            answer = bytes([0x82, 0x00 if self.pairing_mode else 0x01])
        elif command == 0x00:
            answer = bytes([0x80, 0x00 if self.programming else 0x01])
            if self.programming:      # the link that programmed the key may transmit at once (§2)
                self.key, self.programming, self.pairing_mode, self.unlocked = key, False, False, True
        elif command == 0x01:
            self.unlocked = self.key == key
            answer = bytes([0x81, 0x00 if self.unlocked else 0x01])
        else:
            raise ATT_Error(ErrorCode.VALUE_NOT_ALLOWED)
        emit('omron-unlock', self.address, command=command, answer=answer.hex())
        return answer

    def _token_write(self, value: bytes) -> bytes:
        """§2, the 0xFE4A token unlock: `11`, 4 bytes, 15 × `00`, answered `91 00` and the 4 bytes (`91 01` when
        the scenario refuses it)."""
        from bumble.att import ATT_Error, ErrorCode
        if self.model.modern != 'token':
            raise ATT_Error(ErrorCode.WRITE_NOT_PERMITTED)
        if len(value) != 20:
            raise ATT_Error(ErrorCode.INVALID_ATTRIBUTE_LENGTH)
        if value[0] != 0x11:
            raise ATT_Error(ErrorCode.VALUE_NOT_ALLOWED)
        self.unlocked = not self.refuses_token
        answer = bytes([0x91, 0x00 if self.unlocked else 0x01]) + bytes(value[1:5])
        emit('omron-unlock', self.address, command=0x11, answer=answer.hex())
        return answer

    def channel_write(self, channel: int, piece: bytes) -> list[bytes] | None:
        """A piece on transmit channel `channel`; once the packet is whole, the answer's pieces (or None). On
        the 0xFE4A service the piece is the whole packet, and so is the answer (§3)."""
        size = 64 if self.model.modern else PIECE
        self.pieces[channel] = bytes(piece)
        first = self.pieces[0]
        if not first:
            return None
        needed = 1 if self.model.modern else (first[0] + PIECE - 1) // PIECE
        if any(self.pieces[i] is None for i in range(min(needed, 4))):
            return None
        whole = b''.join(self.pieces[i] for i in range(min(needed, 4)))[:first[0]]
        self.pieces = [None] * 4
        check = 0
        for byte in whole:
            check ^= byte
        if check or len(whole) < 8 or not self.unlocked:
            emit('omron-packet-ignored', self.address, packet=whole.hex(), unlocked=self.unlocked)
            return None
        answer = self._answer(int.from_bytes(whole[1:3], 'big'), int.from_bytes(whole[3:5], 'big'), whole[5], whole[6:-2])
        return None if answer is None else [answer[i:i + size] for i in range(0, len(answer), size)]

    def _answer(self, kind: int, address: int, count: int, data: bytes) -> bytes | None:
        emit('omron-packet', self.address, type=f'{kind:04x}', at=f'{address:04x}', count=count)
        if kind == START:
            return packet(START_ANSWER, data=bytes(16))
        if kind == READ:
            answer = bytearray(packet(READ_ANSWER, address, bytes(self._read(address, count))))
            if self.corrupt_reads > 0:
                self.corrupt_reads -= 1
                answer[-1] ^= 0x5A
            return bytes(answer)
        if kind == WRITE:
            settings = self.model.settings_write
            target = self.model.settings_read + address - settings if settings <= address < settings + 0x40 else address
            self.memory[target:target + len(data)] = data
            return packet(WRITE_ANSWER, address, data)
        if kind == END:
            self.transmissions += 1
            return packet(END_ANSWER)
        return None

    def _read(self, address: int, count: int) -> bytes:
        return bytes(self.memory[a] if a < len(self.memory) else 0xFF for a in range(address, address + count))

    def _store(self, user: int, slot: int, value: bytes):
        start = self.model.users[user] + slot * self.model.size
        self.memory[start:start + len(value)] = value

    def _word(self, value: int) -> bytes:
        return value.to_bytes(2, self.model.counters or 'little')

    def _write_counters(self):
        """§4: per user the next slot at 2u, the unread count at 4 + 2u; 0x8000 for none (and unused users)."""
        slots = [self.next_slots[u] if u < len(self.next_slots) else 0x8000 for u in range(2)]
        counts = [self.unread[u] if u < len(self.unread) and self.unread[u] > 0 else 0x8000 for u in range(2)]
        start = self.model.settings_read
        self.memory[start:start + 8] = b''.join(self._word(v) for v in slots + counts)

    def _read_counters(self):
        low = 1 if self.model.counters == 'big' else 0
        block = self.memory[self.model.settings_read:self.model.settings_read + 8]
        self.next_slots = [block[2 * u + low] for u in range(len(self.model.users))]
        self.unread = [block[4 + 2 * u + low] for u in range(len(self.model.users))]
