"""Faults: a peer killed mid-hand, a client publishing garbage, a revoke caught by the audit."""

from __future__ import annotations

import asyncio
import dataclasses
import os

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.keys import new_identity
from lodam_p2p.session.wire import Body, Msg, raw_public, seal_frame
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport import topics
from lodam_p2p.transport.frames import Frame, FrameKind
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import QUICK, bots, run_all, table
from tests.session.revoker import Revoker, cheating
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run


async def _until(check: object, timeout: float = 30.0) -> None:
    assert callable(check)
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


#: Quick enough to find the killed seat soon, with room for an honest seat's shuffle on
#: a loaded two-core machine (all five sessions share one event loop here).
KILLED = dataclasses.replace(QUICK, timeout_s=5.0)


def test_a_peer_killed_mid_hand_is_blamed_and_the_others_end_with_a_result() -> None:
    hub = MemoryHub()
    # One life: with the killed seat voted out, the three others play the match out.
    sessions = table(hub, bots(["random"] * 4), Options(lives=1), timing=KILLED)
    victim = sessions[3]  # seat 2

    async def scenario() -> list[object]:
        tasks = [asyncio.create_task(s.run()) for s in sessions]
        await _until(lambda: victim.hand is not None and victim.hand.step > 8)
        victim.link.transport.abort()  # type: ignore[attr-defined]  # the will fires
        tasks[3].cancel()
        return list(await asyncio.gather(*tasks[:3], tasks[3], return_exceptions=True))

    outcomes = run(scenario(), MATCH_PATIENCE)
    survivors = outcomes[:3]
    assert isinstance(outcomes[3], BaseException)  # the victim itself got no result
    for outcome in survivors:
        assert outcome.blames, outcome  # type: ignore[union-attr]
        # The dropped seat is gone (its will) or voted out: the line names seat 2.
        assert outcome.blames[0].startswith("seat 2: ")  # type: ignore[union-attr]
        assert 2 not in outcome.winners and outcome.winners  # type: ignore[union-attr]
    assert len({o.winners for o in survivors}) == 1  # type: ignore[union-attr]
    assert len({o.blames for o in survivors}) == 1  # type: ignore[union-attr]


async def _garbage(hub: MemoryHub, victim: str, stop: asyncio.Event) -> int:
    """Publish junk on the table's topics until ``stop``; return how many."""
    transport = hub.transport()
    await transport.connect()
    key = new_identity(os.urandom)
    mine = raw_public(key)
    outsider = "p" + "0" * 20
    data = Frame(FrameKind.DATA, victim, 1, Body(Msg.MOVE, 1, 0, ("play", 3)).encode()).encode()
    junk = [
        (topics.peer_topic("oak", outsider), b"\x00garbage"),
        (topics.peer_topic("oak", victim), os.urandom(300)),
        (topics.peer_topic("oak", victim), seal_frame(key, mine, "oak", data)),  # forged
        (topics.peer_topic("oak", outsider), bytes(1_000_000)),
        (topics.presence_topic("oak", outsider), b"{not json"),
        ("lodam/v3/t/oak/p", b"level missing"),
    ]
    sent = 0
    while not stop.is_set():
        topic, payload = junk[sent % len(junk)]
        await transport.publish(topic, payload)
        sent += 1
        await asyncio.sleep(0.002)
    await transport.close()
    return sent


def test_garbage_forged_and_oversized_messages_are_ignored_and_the_match_finishes() -> None:
    hub = MemoryHub()
    sessions = table(hub, bots(["random"] * 3), Options(lives=1))
    victim = sessions[1].link.peer

    async def scenario() -> tuple[list[object], int]:
        stop = asyncio.Event()
        noise = asyncio.create_task(_garbage(hub, victim, stop))
        outcomes = await run_all(sessions)
        stop.set()
        return list(outcomes), await noise

    outcomes, sent = run(scenario(), MATCH_PATIENCE)
    assert sent > 20
    for outcome in outcomes:
        assert outcome.blames == () and outcome.winners  # type: ignore[union-attr]
        assert outcome.audits_passed == outcome.deals  # type: ignore[union-attr]
    assert all(s.link.ignored > 0 for s in sessions)


def test_a_revoke_is_caught_by_the_audit_and_puts_the_revoker_out() -> None:
    cheat = Revoker()
    seats = bots(["random"] * 4)
    seats[1] = SeatPlan("cheat", cheat, "bot:cheat")
    sessions = table(MemoryHub(), seats, Options(lives=2))
    cheating(sessions[2])
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    assert cheat.revoked
    for outcome in outcomes:
        assert [b for b in outcome.blames if b.startswith("seat 1: revoke")], outcome.blames
        assert outcome.lives[1] == 0 and 1 not in outcome.winners
        assert outcome.audits_passed == outcome.deals - 1  # the revoked deal is void
    assert len({(o.winners, o.lives) for o in outcomes}) == 1
