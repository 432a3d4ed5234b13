"""Presence tells its order: a late "gone" never marks a peer away that came back since."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lodam_p2p.transport.memory import Faults, MemoryHub, MemoryTransport
from lodam_p2p.transport.presence import (
    BadPresence,
    Presence,
    PresenceSpec,
    PresenceTracker,
)
from lodam_p2p.transport.topics import presence_topic, table_presence_pattern
from tests.support.aio import Inbox, run


def _life(connections: int, epochs: int) -> list[Presence]:
    """A peer's presences in the order they happened: each connection comes online,
    then goes (its will, or a clean close); processes restart with a higher epoch."""
    told = []
    for epoch in range(epochs):
        for conn in range(1, connections + 1):
            nonce = f"e{epoch}c{conn}"
            told += [Presence("ann", nonce, True, epoch=epoch, conn=conn),
                     Presence("ann", nonce, False, epoch=epoch, conn=conn)]
    return told


@given(st.data(), st.integers(1, 4), st.integers(1, 3))
def test_whatever_the_delivery_order_the_newest_presence_decides(
        data: st.DataObject, connections: int, epochs: int) -> None:
    told = _life(connections, epochs)
    delivered = data.draw(st.lists(st.sampled_from(told), min_size=1, max_size=40))
    tracker, newest = PresenceTracker(), None
    for presence in delivered:
        change = tracker.observe(presence)
        if newest is None or presence.order > newest.order:
            assert change is None or change.online == presence.online
            newest = presence
        else:
            assert change is None  # stale or repeated: no news
        assert tracker.online() == ({"ann"} if newest.online else set())


def test_a_late_will_after_the_next_connection_is_no_news() -> None:
    tracker = PresenceTracker()
    tracker.observe(Presence("ann", "a", True, epoch=0, conn=1))
    assert tracker.observe(Presence("ann", "b", True, epoch=0, conn=2)) is None
    assert tracker.observe(Presence("ann", "a", True, epoch=0, conn=1)) is None  # repeated
    assert tracker.observe(Presence("ann", "a", False, epoch=0, conn=1)) is None  # late will
    assert tracker.online() == {"ann"}
    gone = tracker.observe(Presence("ann", "b", False, epoch=0, conn=2))
    assert gone is not None and not gone.online


def test_a_restarted_process_outranks_every_connection_of_the_last_one() -> None:
    tracker = PresenceTracker()
    tracker.observe(Presence("ann", "a", True, epoch=0, conn=7))
    assert tracker.observe(Presence("ann", "b", False, epoch=0, conn=7)) is not None
    back = tracker.observe(Presence("ann", "c", True, epoch=1, conn=1))
    assert back is not None and back.online
    assert tracker.observe(Presence("ann", "b", False, epoch=0, conn=7)) is None


@pytest.mark.parametrize("junk", [b'"epoch":-1', b'"conn":true', b'"conn":1.5',
                                  b'"epoch":"2"', b'"conn":281474976710656'])
def test_a_bad_order_is_bad_presence(junk: bytes) -> None:
    with pytest.raises(BadPresence):
        Presence.decode(b'{"peer":"ann","nonce":"n","online":true,' + junk + b"}")


def test_the_order_is_signed() -> None:
    spec = PresenceSpec("oak", "ann", signer=lambda data: data[:64].ljust(64, b"\0"),
                        pubkey=b"k" * 32, epoch=3)
    told = Presence.decode(spec.payload("n", True, conn=2))
    assert (told.epoch, told.conn) == (3, 2)
    assert told.signing_input("oak") != Presence(
        "ann", "n", True, epoch=3, conn=1).signing_input("oak")


async def _bounces_over_a_reordering_hub(seed: int) -> tuple[frozenset[str], int]:
    """A peer's link drops and comes back again and again while the hub reorders and
    repeats its presences; a watcher tracks it."""
    faults = Faults(reorder=0.6, duplicate=0.4, seed=seed, topics=presence_topic("oak", "ann"),
                    hold_s=0.01)
    hub = MemoryHub(faults)
    watcher = hub.transport()
    await watcher.connect()
    await watcher.subscribe(table_presence_pattern("oak"))
    inbox = Inbox(watcher)
    ann = MemoryTransport(hub, PresenceSpec("oak", "ann"))
    await ann.connect()
    bounces = 12
    for _ in range(bounces):
        await ann.bounce()
    final = Presence.decode(hub.retained[presence_topic("oak", "ann")])
    await inbox.wait_for(lambda m: Presence.decode(m.payload) == final)
    while hub._held or not watcher._queue.empty():  # every held-back message delivered
        await asyncio.sleep(0.005)
    await inbox.stop()
    tracker, newest, wrong = PresenceTracker(), None, 0
    for message in inbox.received:
        presence = Presence.decode(message.payload)
        tracker.observe(presence)
        if newest is None or presence.order > newest.order:
            newest = presence
        wrong += tracker.online() != ({"ann"} if newest.online else set())
    return tracker.online(), wrong


@pytest.mark.parametrize("seed", range(12))
def test_a_peer_that_bounces_over_a_reordering_hub_is_seen_as_it_last_was(seed: int) -> None:
    online, wrong = run(_bounces_over_a_reordering_hub(seed))
    assert online == {"ann"} and wrong == 0
