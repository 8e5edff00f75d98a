"""A service at handles of its own: Bumble's server numbers attributes one after another, but a real cuff's table
has gaps, and a client may go by a handle (omblepy tells Omron's receive channels apart by their declarations'
handles, docs/omron.md §1). ATT needs handles only to increase (Core Vol 3 Part F §3.2.2), so gaps are fine."""
from __future__ import annotations

from bumble.gatt import Characteristic, CharacteristicDeclaration, Service


def add_at_handles(server, service: Service, first: int, declarations: dict[Characteristic, int]):
    """Adds `service` last, as Bumble's `Server.add_service` does, but from handle `first` and with each characteristic
    `declarations` names declared at its handle (each at least one past what comes before it). Every notifying
    characteristic must carry its CCCD among its descriptors (GattLayout does); nothing may be added after."""
    def place(attribute, handle: int) -> int:
        attribute.handle = attribute.end_group_handle = handle
        server.attributes.append(attribute)
        return handle

    handle = place(service, max(first, server.attributes[-1].handle + 1 if server.attributes else 1))
    for characteristic in service.characteristics:
        handle = max(handle + 1, declarations.get(characteristic, 0))
        declaration = CharacteristicDeclaration(characteristic, handle + 1)
        place(declaration, handle)
        handle = place(characteristic, handle + 1)
        for descriptor in characteristic.descriptors:
            handle = place(descriptor, handle + 1)
        declaration.end_group_handle = characteristic.end_group_handle = handle
    service.end_group_handle = handle
    server.services.append(service)
