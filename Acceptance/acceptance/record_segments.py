"""A stored record as Blood Pressure Record 0x2B36 indications (BPS 1.1; docs/reference/GATT-HEALTH.md §7), cut the way
cuff-sim cuts it (`BloodPressureRecordSegment.encodeSegments`, `RecordCRC.swift`):

| field | bytes | |
|---|---|---|
| Segmentation Header | 1 | bit 0 first segment, bit 1 last, bits 2–7 a rolling counter 0–63 |
| Sequence Number | 2 | first segment only |
| UUID | 2 | first segment only: 0x2B34, Enhanced Blood Pressure Measurement |
| Recorded value | rest | then, when the Feature has bit 6, the E2E-CRC after the value's last byte |

The E2E-CRC is CRC-16/MCRF4XX (polynomial 0x1021 reflected, initial 0xFFFF, no final XOR; check value
"123456789" → 0x6F91), least significant byte first — unverified for BPS, as docs/cuff-sim.md says.
"""
from __future__ import annotations

ENHANCED_BLOOD_PRESSURE_MEASUREMENT = 0x2B34
E2E_CRC_FEATURE = 1 << 6          # Blood Pressure Feature 0x2A49 bit 6
FIRST_HEADER = 5                  # header, sequence number, UUID


def mcrf4xx(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def recorded_value(value: bytes, feature: bytes) -> bytes:
    """The 0x2B34 value with its E2E-CRC when the cuff's Feature announces one."""
    if int.from_bytes(feature[:2], 'little') & E2E_CRC_FEATURE:
        return value + mcrf4xx(value).to_bytes(2, 'little')
    return value


def segments(sequence: int, value: bytes, size: int, counter: int) -> list[bytes]:
    """Segments of at most `size` bytes, header included; the first carries `counter` (0–63) and each next
    one the following value."""
    out: list[bytes] = []
    rest = value
    while True:
        first = not out
        room = size - (FIRST_HEADER if first else 1)
        last = len(rest) <= room
        header = bytes([((counter + len(out)) & 0x3F) << 2 | (0x02 if last else 0) | (0x01 if first else 0)])
        prefix = sequence.to_bytes(2, 'little') + ENHANCED_BLOOD_PRESSURE_MEASUREMENT.to_bytes(2, 'little') if first else b''
        out.append(header + prefix + rest[:room])
        rest = rest[room:]
        if not rest:
            return out
