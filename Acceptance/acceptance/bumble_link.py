"""Bumble 0.0.236's virtual radio, made to work with a Linux 6.1 host (docs/acceptance.md, "Bumble").

The kernel drives one Bumble controller as hci0; every cuff is a Bumble device with a controller of its
own on the same `LocalLink`. Two defects of this Bumble version stop a Linux host from talking to a
peer on that link; each class below corrects one. Re-check both before moving off the version pinned in Acceptance/requirements.txt.
"""
import asyncio

from bumble import hci
from bumble.controller import Controller
from bumble.core import PhysicalTransport
from bumble.link import LocalLink



class ConnectionAddressedLink(LocalLink):
    """Tags LE ACL data with the address the sender holds on that connection.

    `LocalLink.send_acl_data` uses the sender's *current random address*. Linux scans with a fresh
    non-resolvable private address but connects with its public one (and a cuff with a public address
    has no random one), so the receiver finds no connection for the tag and drops every ATT PDU:
    bluetoothd then gives up service discovery after 30 s and resolves no characteristic.
    """

    def send_acl_data(self, sender_controller, destination_address, transport, data):
        connection = sender_controller.le_connections.get(destination_address)
        receiver = self.find_le_controller(destination_address)
        if transport != PhysicalTransport.LE or connection is None or receiver is None:
            return super().send_acl_data(sender_controller, destination_address, transport, data)
        source = connection.self_address
        asyncio.get_running_loop().call_soon(receiver.on_link_acl_data, source, transport, data)


class HostController(Controller):
    """The controller Linux drives (hci0): reports connections with the enhanced event once unmasked.

    Bumble reports LE Connection Complete (0x01) even when the host unmasked LE Enhanced Connection
    Complete (LE event mask bit 9), which Linux 6.1 does for a controller with LL privacy and extended
    advertising and then waits for. Without it the kernel cancels the attempt after 4 s and keeps a
    stale connection: the first link works, every later reconnect fails with EBUSY
    (`org.bluez.Error.Failed: Input/output error`). Core 5.3 Vol 4 Part E §7.7.65.10: when the enhanced
    event is unmasked the controller sends it instead of the legacy one.
    """

    ENHANCED_CONNECTION_COMPLETE = 1 << 9

    def send_hci_packet(self, packet):
        if (isinstance(packet, hci.HCI_LE_Connection_Complete_Event)
                and self.le_event_mask & self.ENHANCED_CONNECTION_COMPLETE):
            packet = hci.HCI_LE_Enhanced_Connection_Complete_Event(
                status=packet.status,
                connection_handle=packet.connection_handle,
                role=packet.role,
                peer_address_type=packet.peer_address_type,
                peer_address=packet.peer_address,
                local_resolvable_private_address=hci.Address.ANY,
                peer_resolvable_private_address=hci.Address.ANY,
                connection_interval=packet.connection_interval,
                peripheral_latency=packet.peripheral_latency,
                supervision_timeout=packet.supervision_timeout,
                central_clock_accuracy=packet.central_clock_accuracy)
        super().send_hci_packet(packet)
