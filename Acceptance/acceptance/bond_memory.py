"""The cuff's side of its bonds, over Bumble's key store (docs/acceptance.md, "The cuffs").

Bumble keeps the keys of a pairing in the device's key store, by the central's identity address, and answers the
central's LTK request on a later link from it. A cuff that forgets its bond after each link (`forgetsBondAfterLink`,
the Omron HEM-7188T1 as hass-omron reads it, docs/reference/GATT-HEALTH.md §13.13) drops those keys when a link ends,
by either side, as cuff-sim's `BluezEmulator.dropLink` does: a later link over the key bluetoothd kept then gets a
negative LTK reply (PIN or Key Missing), the central's encryption fails and it drops the link, and only a fresh pairing
links again. No Bumble import here, so BondMemoryRadioParityTests can play it beside cuff-sim with a plain python3.
"""
from __future__ import annotations

from .events import emit


class BondMemory:
    """`keystore` is Bumble's (`get`, `update`, `delete`, async, by the address's string)."""

    def __init__(self, address: str, forgets: bool, keystore):
        self.address, self.forgets, self.keystore = address, forgets, keystore

    async def link_ended(self, central: str) -> bool:
        """The link with `central` ended: a cuff that forgets its bond drops the keys it holds for it. True when it did."""
        if not self.forgets or await self.keystore.get(central) is None:
            return False
        await self.keystore.delete(central)
        emit('forgot-bond', self.address, central=central)
        return True

