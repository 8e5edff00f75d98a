#!/usr/bin/env python3
"""Reads cuffd's whole change feed once, for readings-benchmark: `follow-feed.py BUS METHOD LIMIT` calls METHOD
(Changes or ChangeColumns) from anchor 0 with pages of LIMIT until `more` is false, and prints how many readings
came. A client written by others (dbus-fast), so that the figure is cuffd's, not our own client's."""
import asyncio
import sys

from dbus_fast import Message, MessageType, Variant
from dbus_fast.aio import MessageBus


async def follow(address: str, method: str, limit: int) -> int:
    bus = await MessageBus(bus_address=address).connect()
    anchor, count = 0, 0
    while True:
        reply = await bus.call(Message(
            destination="org.cuffd.Gateway1", path="/org/cuffd/Gateway1", interface="org.cuffd.Gateway1",
            member=method, signature="a{sv}", body=[{"anchor": Variant("t", anchor), "limit": Variant("u", limit)}]))
        if reply.message_type != MessageType.METHOD_RETURN:
            raise SystemExit(f"{method}: {reply.error_name} {reply.body}")
        page = reply.body[0]
        anchor = page["anchor"].value
        count += len(page["columns"].value["systolic"].value) if "columns" in page else len(page["readings"].value)
        if not page["more"].value:
            return count


if __name__ == "__main__":
    print(asyncio.run(follow(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
