"""Measurement Status bits by name (docs/reference/GATT-HEALTH.md §4), as a scenario's `expect.readings[].status`
lists them (docs/cuff-sim.md): the same table as the Swift side's `BloodPressureMeasurementStatus.nameTable`,
kept equal by Tests/CuffSimulationTests/StatusNameParityTests.
"""
from __future__ import annotations

# (name, the bits it looks at, the value they must have), in bit order; every RFU bit has a name, so none goes unseen.
TABLE = (
    ('bodyMovement', 0x0001, 0x0001),
    ('cuffTooLoose', 0x0002, 0x0002),
    ('irregularPulse', 0x0004, 0x0004),
    ('pulseRateExceedsUpperLimit', 0x0018, 0x0008),
    ('pulseRateBelowLowerLimit', 0x0018, 0x0010),
    ('pulseRateRangeReserved', 0x0018, 0x0018),
    ('improperPosition', 0x0020, 0x0020),
) + tuple((f'reservedBit{bit}', 1 << bit, 1 << bit) for bit in range(6, 16))

KNOWN = frozenset(name for name, _, _ in TABLE)


def names(status: int | None) -> tuple[str, ...]:
    """The names of the bits set in a stored status (`cuffctl readings --json`'s `status`; None, the cuff sent
    none, counts as no bit set), in bit order."""
    return tuple(name for name, mask, value in TABLE if (status or 0) & mask == value)
