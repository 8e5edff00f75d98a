"""The bring-up client's pairing agent and GattProfile1 application (docs/reference/BLUEZ-DBUS.md §4, §5).

The agent answers as a user would: it types the passkey the cuff displays (the scenario's, as a
user gives it to `cuffctl pair --passkey`) and accepts every confirmation. Each call bluetoothd
makes is noted in the bus log, so the suite can tell what Pair asked for with each kind of pairing.
"""
import dbus
import dbus.service

from .bus_log import BusLog, long_uuid

AGENT_PATH = '/org/cuffd/acceptance/agent'
APPLICATION_PATH = '/org/cuffd/acceptance'
PROFILE_PATH = '/org/cuffd/acceptance/profile'
AGENT = 'org.bluez.Agent1'
PROFILE = 'org.bluez.GattProfile1'


class Agent(dbus.service.Object):
    def __init__(self, bus, log: BusLog, passkeys: dict[str, int]):
        super().__init__(bus, AGENT_PATH)
        self.log = log
        self.passkeys = passkeys          # device path → the key its cuff displays

    @dbus.service.method(AGENT, in_signature='', out_signature='')
    def Release(self):
        self.log.note('agent', method='Release')

    @dbus.service.method(AGENT, in_signature='o', out_signature='u')
    def RequestPasskey(self, device):
        self.log.note('agent', device, method='RequestPasskey')
        if str(device) not in self.passkeys:
            raise dbus.DBusException('no passkey known for this cuff', name='org.bluez.Error.Rejected')
        return dbus.UInt32(self.passkeys[str(device)])

    @dbus.service.method(AGENT, in_signature='ouq', out_signature='')
    def DisplayPasskey(self, device, passkey, entered):
        self.log.note('agent', device, method='DisplayPasskey', passkey=int(passkey))

    @dbus.service.method(AGENT, in_signature='o', out_signature='s')
    def RequestPinCode(self, device):
        self.log.note('agent', device, method='RequestPinCode')
        raise dbus.DBusException('LE cuffs have no PIN', name='org.bluez.Error.Rejected')

    @dbus.service.method(AGENT, in_signature='ou', out_signature='')
    def RequestConfirmation(self, device, passkey):
        self.log.note('agent', device, method='RequestConfirmation', passkey=int(passkey))

    @dbus.service.method(AGENT, in_signature='o', out_signature='')
    def RequestAuthorization(self, device):
        self.log.note('agent', device, method='RequestAuthorization')

    @dbus.service.method(AGENT, in_signature='os', out_signature='')
    def AuthorizeService(self, device, uuid):
        self.log.note('agent', device, method='AuthorizeService', uuid=str(uuid))

    @dbus.service.method(AGENT, in_signature='', out_signature='')
    def Cancel(self):
        self.log.note('agent', method='Cancel')


class Profile(dbus.service.Object):
    """A GattProfile1: bluetoothd auto-connects bonded, trusted devices offering these UUIDs."""

    def __init__(self, bus, log: BusLog, uuids: list[str]):
        super().__init__(bus, PROFILE_PATH)
        self.log = log
        self.uuids = dbus.Array([long_uuid(u) for u in uuids], signature='s')

    @dbus.service.method(PROFILE, in_signature='', out_signature='')
    def Release(self):
        self.log.note('profile', method='Release')

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        return {'UUIDs': self.uuids} if interface == PROFILE else {}

    @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='ss', out_signature='v')
    def Get(self, interface, name):
        if interface == PROFILE and name == 'UUIDs':
            return self.uuids
        raise dbus.DBusException(f'no property {name}', name='org.freedesktop.DBus.Error.InvalidArgs')


class Application(dbus.service.Object):
    """The ObjectManager RegisterApplication asks for (`GetManagedObjects` before it replies)."""

    def __init__(self, bus, log: BusLog, profile: Profile):
        super().__init__(bus, APPLICATION_PATH)
        self.log = log
        self.profile = profile

    @dbus.service.method('org.freedesktop.DBus.ObjectManager', in_signature='', out_signature='a{oa{sa{sv}}}')
    def GetManagedObjects(self):
        self.log.note('application', method='GetManagedObjects')
        return {dbus.ObjectPath(PROFILE_PATH): {PROFILE: {'UUIDs': self.profile.uuids}}}
