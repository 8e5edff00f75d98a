"""A&D's own service beside 0x1810 (docs/reference/GATT-HEALTH.md §13.8), as cuff-sim plays it
(`BluezEmulator+AAndD.swift`, docs/cuff-sim.md): its command characteristic takes the disconnect request
`02 01 03` (obniz `UA1200BLE.pairingWait`), after which the cuff ends the link; other commands are taken and
logged. In cooperation mode a UA-1200BLE advertises the service's UUID (obniz `UA1200BLE.isCooperationMode`).
"""
from __future__ import annotations

SERVICE = '233BF000-5A34-1B6D-975C-000D5690ABE4'
COMMAND = '233BF001-5A34-1B6D-975C-000D5690ABE4'
DISCONNECT_REQUEST = bytes([0x02, 0x01, 0x03])
