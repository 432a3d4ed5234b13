"""Signed table announcements: a stranger on the LAN cannot take a table over.

Announcements are signed by their host's key and each announcer has a retained topic
of its own, so two announcers of one name are two tables (``oak#7f3a``, ``oak#1c2d``).
Over the in-memory hub: a tampered announcement is not listed, both announcers are, and
a pin finds the one meant. On machines (:mod:`tests.session.machines`): a seat without a
pin keeps the first announcer it heard and says so, a START from any other key is
ignored, and a seated peer announcing the table it does not host is blamed.
"""

from __future__ import annotations

import asyncio
import json

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Notice
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.table import find_announcement
from lodam_p2p.session.wire import raw_public
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport.lobby import TableAnnouncement, read_lobby
from lodam_p2p.transport.memory import MemoryHub
from lodam_p2p.transport.presence import PresenceSpec
from tests.session.machines import TABLE, Router, machines
from tests.session.test_joining import TIMING, Keeper, _table
from tests.support.announcing import announced, host_peer
from tests.support.virtual import run_on_table_clock

NEVER = 3600.0


async def _publish(hub: MemoryHub, topic: str, payload: bytes) -> None:
    writer = hub.transport(PresenceSpec("oak", "writer"))
    await writer.connect()
    await writer.publish(topic, payload, retain=True)


async def _lobby(hub: MemoryHub) -> list[TableAnnouncement]:
    reader = hub.transport(PresenceSpec("lobby", "look"))
    await reader.connect()
    return await read_lobby(reader, limit=NEVER)


def test_two_announcers_of_one_name_are_two_tables_and_a_forgery_is_neither() -> None:
    first, second = announced("oak", 1, 3), announced("oak", 2, 4)

    async def scenario() -> list[TableAnnouncement]:
        hub = MemoryHub()
        await _publish(hub, first.topic, first.encode())
        await _publish(hub, second.topic, second.encode())
        # a stranger writes over the first host's topic: its own key, another's name
        body = json.loads(first.encode())
        await _publish(hub, first.topic, json.dumps({**body, "seats": 5}).encode())
        forged = announced("oak", 3, 3)  # a good signature, on another announcer's topic
        await _publish(hub, second.topic, forged.encode())
        return await _lobby(hub)

    listed = asyncio.run(scenario())
    assert listed == []  # both retained topics now hold what nobody can sign for
    assert first.label != second.label and first.label.startswith("oak#")

    async def honest() -> list[TableAnnouncement]:
        hub = MemoryHub()
        for announcement in (first, second):
            await _publish(hub, announcement.topic, announcement.encode())
        return await _lobby(hub)

    both = asyncio.run(honest())
    assert [a.label for a in both] == [first.label, second.label]
    assert [a.seats for a in both] == [3, 4]


def test_a_pin_finds_the_announcer_meant_and_no_pin_the_first_heard() -> None:
    first, second = announced("oak", 1, 3), announced("oak", 2, 3)

    async def scenario() -> tuple[TableAnnouncement, TableAnnouncement]:
        hub = MemoryHub()
        for announcement in (first, second):
            await _publish(hub, announcement.topic, announcement.encode())
        pinned = await find_announcement(hub.transport, second.label, open_only=True)
        unpinned = await find_announcement(hub.transport, "oak", open_only=True)
        return pinned, unpinned

    pinned, unpinned = run_on_table_clock(scenario(), 60.0)
    assert pinned.host == host_peer(2) and pinned.fingerprint == second.fingerprint
    assert unpinned.host == host_peer(1)


def _impostor() -> tuple[TableMachine, list[TableMachine]]:
    """A stranger's table of the same name: its watcher and two colluding seats."""
    plans = [SeatPlan(f"X{i}", Keeper(), "bot") for i in range(2)]
    stranger = machines(plans, Options(lives=1), timing=TIMING, seed=77)
    return stranger[0], stranger[1:]


def _fake_start(impostor: TableMachine, colluders: list[TableMachine],
                victim: TableMachine) -> bytes:
    """START seating ``victim`` alone against ``colluders``, by the impostor's key."""
    desk = HostDesk(TABLE, impostor.me, 3, Options(lives=1), tuple(c.me for c in colluders))
    for seat in (*colluders, victim):
        desk.join(seat.me, raw_public(seat.identity), seat.me[:8], "bot")
    assert desk.full
    return desk.start_body(bytes(16)).encode()


def test_a_start_from_another_key_than_the_joined_host_is_ignored() -> None:
    table, keepers = _table()
    watcher, guest = table[0], table[3]
    guest.host = None  # it learns its host from the lobby, as a joining seat does
    impostor, colluders = _impostor()
    assert watcher.desk is not None
    router = Router(table)
    router.start()
    guest.seating.lobby_seen(watcher.desk.announcement().signed(watcher.identity))
    guest.seating.lobby_seen(TableAnnouncement(TABLE, impostor.me, 3).signed(impostor.identity))
    assert guest.host == watcher.me  # the first heard stays its host
    router.deliver(impostor, _fake_start(impostor, colluders, guest))
    router.until("the guest seated", lambda: guest.roster is not None)
    assert guest.roster is not None
    assert guest.roster.peers == {m.me for m in table[1:]}
    notices = [e.text for e in keepers[2].events if isinstance(e, Notice)]
    assert any(text.startswith(f"Two tables are announced as {TABLE}") for text in notices)


def test_an_unpinned_seat_joins_the_first_announcer_heard_and_says_so() -> None:
    table, keepers = _table()
    watcher, guest = table[0], table[3]
    guest.host = None
    impostor, _colluders = _impostor()
    assert watcher.desk is not None
    router = Router(table)
    router.start()
    fake = TableAnnouncement(TABLE, impostor.me, 3).signed(impostor.identity)
    real = watcher.desk.announcement().signed(watcher.identity)
    guest.seating.lobby_seen(fake)
    guest.seating.lobby_seen(real)
    router._carry(guest)  # the player is told through the machine's effects
    assert guest.host == impostor.me  # without a pin, the first heard: and it is said
    notices = [e.text for e in keepers[2].events if isinstance(e, Notice)]
    assert notices == [f"Two tables are announced as {TABLE}: {fake.label} and {real.label}. "
                       f"This seat asks {fake.label}, the first it heard (join {real.label} "
                       "to sit at the other)."]


def test_a_pinned_seat_hears_only_its_host() -> None:
    table, keepers = _table()
    watcher, guest = table[0], table[3]
    impostor, _colluders = _impostor()
    assert watcher.desk is not None
    real = watcher.desk.announcement().signed(watcher.identity)
    guest.host = None
    guest.seating.pin, guest.seating.pin_given = real.fingerprint[:4], True
    router = Router(table)
    router.start()
    guest.seating.lobby_seen(TableAnnouncement(TABLE, impostor.me, 3).signed(impostor.identity))
    assert guest.host is None
    guest.seating.lobby_seen(real)
    router._carry(guest)
    assert guest.host == watcher.me
    assert not [e for e in keepers[2].events if isinstance(e, Notice)]


def test_an_announcement_whose_host_is_not_its_key_is_dropped() -> None:
    table, _keepers = _table()
    watcher, guest = table[0], table[3]
    impostor, _colluders = _impostor()
    guest.host = None
    Router(table).start()
    # the impostor signs an announcement naming the real host: it is no one's
    guest.seating.lobby_seen(TableAnnouncement(TABLE, watcher.me, 3).signed(impostor.identity))
    assert guest.host is None and guest.seating.announcers == {}


def test_a_seated_peer_announcing_the_table_it_does_not_host_is_blamed() -> None:
    table, _keepers = _table()
    watcher, own, guest = table[0], table[1], table[3]
    router = Router(table)
    router.start()
    router.until("the table started", lambda: guest.roster is not None)
    assert guest.roster is not None and watcher.desk is not None
    false = TableAnnouncement(TABLE, own.me, 3).signed(own.identity)
    guest.seating.lobby_seen(false)
    guest.seating.lobby_seen(false)  # blamed once
    seat = guest.roster.seat_of(own.me)
    assert guest.blames == [f"seat {seat}: announced table {TABLE}, which it does not host: "
                            f"its signed announcement {false.encode().decode()}"]
    guest.blames.clear()
    guest.seating.lobby_seen(watcher.desk.announcement().signed(watcher.identity))
    assert guest.blames == []  # the host announcing its own table is no offence


def test_a_seated_peer_signing_a_start_is_blamed_on_it_at_every_seat() -> None:
    table, _keepers = _table()
    own = table[1]
    _impostor_watcher, colluders = _impostor()
    router = Router(table)
    router.start()
    # in the lobby, before the real START: kept, and blamed once its signer is seated
    router.deliver(own, _fake_start(own, colluders, table[3]))
    router.until("the table started", lambda: all(m.roster is not None for m in table))
    seat = table[3].roster.seat_of(own.me) if table[3].roster else None
    for machine in (table[0], table[2], table[3]):
        assert [b.split(" for ")[0] for b in machine.blames] == [
            f"seat {seat}: false-host: signed a START"], machine.blames
