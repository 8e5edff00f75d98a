"""cuffd's acceptance suite over the real BlueZ stack (docs/acceptance.md).

Two halves share this package: the radio (`python -m acceptance.radio`, Bumble in a venv) plays the
cuffs of a scenario file, and the driver (`python3 -m acceptance.driver`, Debian's python3-dbus)
runs each scenario against bluetoothd and checks the outcome. Both run inside the guest.
"""
