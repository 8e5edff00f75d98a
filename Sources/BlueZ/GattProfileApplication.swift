import DBus

/// The application cuffd registers with `GattManager1.RegisterApplication`: an ObjectManager with one
/// `org.bluez.GattProfile1` naming the Blood Pressure and Heart Rate services. For each UUID bluetoothd
/// "requests automatic connections to be established to devices supporting it" — it puts bonded,
/// trusted cuffs on the controller's accept list, so a cuff that wakes and advertises is connected at
/// once (`doc/gatt-api.txt`; `src/gatt-database.c`; docs/reference/BLUEZ-DBUS.md §4).
enum GattProfileApplication {
    static func interface(uuids: [String]) -> DBusInterface {
        DBusInterface(BluezName.gattProfile, methods: [
            // "This method gets called when the service daemon unregisters the profile."
            .init("Release") { _ in [] },
        ], properties: [
            .init("UUIDs", uuids),
        ])
    }
}
