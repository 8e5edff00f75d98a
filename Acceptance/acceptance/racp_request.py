"""What a BPS 1.1 cuff makes of one value written to its Record Access Control Point 0x2A52
(docs/reference/GATT-HEALTH.md §8; gatt-xml `record_access_control_point.xml`): the records it selects and the
indication on 0x2A52 that ends the procedure. Pure; the same rules as cuff-sim's
`RecordAccessRequest.swift` (docs/cuff-sim.md, "BPS 1.1 stored records"):

op codes 0x01 report, 0x02 delete, 0x03 abort (operator Null), 0x04 count → `05 00 <uint16>`; operators
All, ≤, ≥, within range (filter type 0x01, sequence number uint16), first, last. Refusals, as Response
Code `06 00 <op code> <code>`: other op codes 0x02; missing or Null operator 0x03; unknown operator 0x04;
a short operand, bytes after it, or a range whose minimum exceeds its maximum 0x05; nothing selected
0x06; filter types other than 0x01 0x09.
"""
from __future__ import annotations

from dataclasses import dataclass

REPORT, DELETE, ABORT, COUNT = 0x01, 0x02, 0x03, 0x04
NUMBER_OF_RECORDS, RESPONSE_CODE = 0x05, 0x06
NULL, ALL, AT_MOST, AT_LEAST, WITHIN, FIRST, LAST = range(7)
SEQUENCE_NUMBER = 0x01
FILTER_LENGTHS = {0x01: 2, 0x02: 4, 0x04: 2}    # sequence number, User Facing Time, Omron's sequence number
SUCCESS, OP_CODE_NOT_SUPPORTED, INVALID_OPERATOR, OPERATOR_NOT_SUPPORTED, INVALID_OPERAND, NO_RECORDS_FOUND = range(1, 7)
OPERAND_NOT_SUPPORTED = 0x09


class Refusal(Exception):
    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Request:
    """`action` is `report`, `delete`, `count`, `abort` or `respond`; `sequences` are the selected
    records' sequence numbers (oldest first); `code` is the Response Code of a refusal."""
    op_code: int
    action: str
    sequences: tuple[int, ...] = ()
    code: int = SUCCESS

    @property
    def response(self) -> bytes:
        if self.action == 'count':
            return bytes([NUMBER_OF_RECORDS, NULL]) + len(self.sequences).to_bytes(2, 'little')
        return bytes([RESPONSE_CODE, NULL, self.op_code, self.code])


def parse(value: bytes, sequences: list[int]) -> Request:
    """Reads a written value against the cuff's records (ascending sequence numbers)."""
    op_code = value[0] if value else 0
    try:
        return _request(value, sorted(sequences))
    except Refusal as refusal:
        return Request(op_code, 'respond', code=refusal.code)


def _request(value: bytes, sequences: list[int]) -> Request:
    if not value or value[0] not in (REPORT, DELETE, ABORT, COUNT):
        raise Refusal(OP_CODE_NOT_SUPPORTED)
    if len(value) < 2:
        raise Refusal(INVALID_OPERATOR)
    op_code, operator, operand = value[0], value[1], value[2:]
    if operator > LAST:
        raise Refusal(OPERATOR_NOT_SUPPORTED)
    if op_code == ABORT:
        if operand:
            raise Refusal(INVALID_OPERAND)
        if operator != NULL:
            raise Refusal(INVALID_OPERATOR)
        return Request(op_code, 'abort')
    selected = _select(operator, operand, sequences)
    if op_code == COUNT:
        return Request(op_code, 'count', tuple(selected))
    if not selected:
        raise Refusal(NO_RECORDS_FOUND)
    return Request(op_code, 'report' if op_code == REPORT else 'delete', tuple(selected))


def _select(operator: int, operand: bytes, sequences: list[int]) -> list[int]:
    if operator in (AT_MOST, AT_LEAST, WITHIN):
        if not operand:
            raise Refusal(INVALID_OPERAND)
        filter_type = operand[0]
        if filter_type not in FILTER_LENGTHS:
            raise Refusal(OPERAND_NOT_SUPPORTED)
        width = FILTER_LENGTHS[filter_type]
        count = 2 if operator == WITHIN else 1
        if len(operand) != 1 + count * width:
            raise Refusal(INVALID_OPERAND)
        if filter_type != SEQUENCE_NUMBER:
            raise Refusal(OPERAND_NOT_SUPPORTED)
        low = int.from_bytes(operand[1:3], 'little')
        if operator == AT_MOST:
            return [s for s in sequences if s <= low]
        if operator == AT_LEAST:
            return [s for s in sequences if s >= low]
        high = int.from_bytes(operand[3:5], 'little')
        if low > high:
            raise Refusal(INVALID_OPERAND)
        return [s for s in sequences if low <= s <= high]
    if operand:
        raise Refusal(INVALID_OPERAND)
    if operator == NULL:
        raise Refusal(INVALID_OPERATOR)
    if operator == ALL:
        return sequences
    return sequences[:1] if operator == FIRST else sequences[-1:]
