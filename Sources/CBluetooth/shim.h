// libbluetooth (Debian: libbluetooth-dev), used only where BlueZ's D-Bus API cannot answer:
// the adapter checks of `cuffctl doctor`.
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>
