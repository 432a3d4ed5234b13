"""The lobby leaves out a table whose host is gone (its Last Will fired)."""

from __future__ import annotations

import asyncio

from lodam_p2p.transport import PresenceSpec
from lodam_p2p.transport.lobby import TableAnnouncement, read_lobby
from lodam_p2p.transport.memory import MemoryHub
from tests.support.announcing import host_key


async def _tables_after_host_dies() -> tuple[list[str], list[str]]:
    hub = MemoryHub()
    hosts = {}
    for table in ("oak", "elm"):
        host = hub.transport(PresenceSpec(table, f"host{table}"))
        await host.connect()
        announcement = TableAnnouncement(table, f"host{table}", 5).signed(host_key(len(hosts)))
        await host.publish(announcement.topic, announcement.encode(), retain=True)
        hosts[table] = host
    before = hub.transport(PresenceSpec("lobby", "look1"))
    await before.connect()
    listed = [a.table for a in await read_lobby(before, limit=5.0)]
    hosts["oak"].abort()  # kill -9: the will fires, the announcement stays retained
    after = hub.transport(PresenceSpec("lobby", "look2"))
    await after.connect()
    still = [a.table for a in await read_lobby(after, limit=5.0)]
    return listed, still


def test_a_table_whose_host_is_gone_is_not_listed() -> None:
    listed, still = asyncio.run(_tables_after_host_dies())
    assert listed == ["elm", "oak"]
    assert still == ["elm"]
