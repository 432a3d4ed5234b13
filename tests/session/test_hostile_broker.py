"""A hostile broker over the in-memory hub: it replays, splits views and fires wills of
live seats. What it does is reported as its own fault; no seat is ever blamed for it,
and every seat ends with the same result, the one shown another view too. A seated peer
that forks its own stream is blamed, on its two frames."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lodam_p2p.fairdeal.wire import MAX_ENVELOPE
from lodam_p2p.games.lodam import Options
from lodam_p2p.session import Session
from lodam_p2p.session.away import AwaySeats
from lodam_p2p.session.link import proves_fork
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.transport import topics
from lodam_p2p.transport.base import Message
from lodam_p2p.transport.frames import Frame, FrameKind
from lodam_p2p.transport.memory import Hostile, MemoryHub, MemoryTransport
from tests.session.helpers import PATIENT, bots, run_all, table
from tests.support.aio import MATCH_PATIENCE
from tests.support.virtual import run_on_table_clock as run

#: A short rejoin grace: a will taken as the seat's end would cost it the match at once.
SHORT_GRACE = dataclasses.replace(PATIENT, grace_s=2.0)


def _honest_ends(outcomes: list[MatchOutcome]) -> None:
    """One result everywhere, nobody blamed."""
    assert len({o.winners for o in outcomes}) == 1 and outcomes[0].winners
    assert all(o.blames == () for o in outcomes), [o.blames for o in outcomes]


def _faults(outcomes: list[MatchOutcome], kind: str) -> list[str]:
    return [f for o in outcomes for f in o.broker_faults if f.startswith(kind + ":")]


def test_a_replaying_broker_is_reported_and_nobody_is_blamed() -> None:
    hub = MemoryHub(hostile=Hostile(replay=0.05, seed=3))
    outcomes = run(run_all(table(hub, bots(["random"] * 4), Options(lives=1))),
                   MATCH_PATIENCE)
    _honest_ends(outcomes)
    assert hub.replayed > 0
    assert _faults(outcomes, "replay")
    assert not _faults(outcomes, "split")


def test_a_split_view_is_reported_by_the_seat_shown_it_and_nobody_is_blamed() -> None:
    hub = MemoryHub()
    sessions = table(hub, bots(["random"] * 4), Options(lives=1))
    victim = sessions[2].link.peer
    hub.hostile = Hostile(split=victim, split_every=15, seed=5)
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    _honest_ends(outcomes)
    assert hub.withheld > 0
    assert _faults([outcomes[2]], "withheld")  # the seat shown another view saw it


@pytest.mark.slow
@pytest.mark.parametrize(("victim", "every", "seed"), [(1, 8, 1), (3, 9, 7)])
def test_a_seat_kept_far_behind_by_a_split_view_ends_on_the_others_result(
        victim: int, every: int, seed: int) -> None:
    """Schedules where the seat shown another view is put out of the match early and
    falls far behind while the others finish: they stay, answering its resends, until
    it has echoed their last frames, and it ends on their result, blaming nobody (it
    used to find them gone and name one of them as left)."""
    hub = MemoryHub()
    sessions = table(hub, bots(["random"] * 4), Options(lives=1), seed=seed + 1)
    hub.hostile = Hostile(split=sessions[victim].link.peer, split_every=every, seed=seed)
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    _honest_ends(outcomes)
    assert _faults([outcomes[victim]], "withheld")
    assert not _faults([o for i, o in enumerate(outcomes) if i != victim], "withheld")


def test_a_will_fired_for_a_live_seat_does_not_make_it_gone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    hub = MemoryHub()
    sessions = table(hub, bots(["random"] * 4), Options(lives=1), timing=SHORT_GRACE)
    live = sessions[2]
    wills: list[int] = []

    others = [s for s in sessions if s is not live]
    held: list[int] = []
    for other in others:  # every time another seat takes the live seat for gone
        away_seats = other.away_seats
        seat_gone = away_seats.seat_gone

        def noted(seat: int, seat_gone: Callable[[int], None] = seat_gone,
                  away_seats: AwaySeats = away_seats) -> None:
            seat_gone(seat)
            if seat in away_seats.away:
                held.append(seat)

        monkeypatch.setattr(away_seats, "seat_gone", noted)

    async def back_everywhere() -> None:
        """Every other seat holds the live seat (seat 1) as away for a moment at most:
        its next heartbeat, a frame it signed, brings it back (its presence stays
        "gone", the will being retained). The timeout is a safety net only."""
        async with asyncio.timeout(30.0):
            while any(1 in s.away for s in others):
                await asyncio.sleep(0.01)

    async def scenario() -> list[MatchOutcome]:
        tasks = [asyncio.create_task(s.run()) for s in sessions]
        while not tasks[0].done():
            hand = live.hand
            if hand is not None and hand.step > 4 + 6 * len(wills) and len(wills) < 3:
                _fire_will(hub, live)  # the broker publishes the will of a live seat
                wills.append(hand.step)
                await asyncio.sleep(0.01)
                if not tasks[0].done():
                    await back_everywhere()
            await asyncio.sleep(0.05)
        return list(await asyncio.gather(*tasks))

    outcomes = run(scenario(), MATCH_PATIENCE)
    assert wills and 1 in held  # the will was fired, and taken as a hint, while it played on
    _honest_ends(outcomes)


def _fire_will(hub: MemoryHub, session: Session) -> None:
    """Publish ``session``'s registered Last Will while it is still connected."""
    transport = session.link.transport
    topic, payload = hub._wills[id(transport)]
    hub._publish(0, topic, payload, retain=True)


def test_a_seat_that_forks_its_stream_is_blamed_on_its_two_frames() -> None:
    hub = MemoryHub()
    sessions = table(hub, bots(["random"] * 4), Options(lives=1))
    forker = sessions[3]  # seat 2
    forged: list[bytes] = []

    async def scenario() -> list[MatchOutcome | BaseException]:
        tasks = [asyncio.create_task(s.run()) for s in sessions]
        while not (forker.hand is not None and forker.hand.step > 6):
            await asyncio.sleep(0.01)
        forged.append(await _fork(forker))
        return list(await asyncio.gather(*tasks, return_exceptions=True))

    outcomes = run(scenario(), MATCH_PATIENCE)
    others = [o for i, o in enumerate(outcomes) if i != 3]
    assert all(isinstance(o, MatchOutcome) for o in others)
    for outcome in others:
        assert isinstance(outcome, MatchOutcome)
        assert [b for b in outcome.blames if "equivocation" in b], outcome.blames
        assert all(b.startswith("seat 2: ") for b in outcome.blames), outcome.blames
        assert not outcome.broker_faults
    assert len({o.winners for o in others if isinstance(o, MatchOutcome)}) == 1


async def _fork(session: Session) -> bytes:
    """Publish a second frame, signed by ``session``'s key, at the position of its last
    one: a fork of its stream (a harmless BYE, so only the fork is wrong)."""
    link = session.link
    seq = link.endpoint.high_water
    before = link.endpoint._outbox.positions.get(seq - 1)
    frame = Frame(FrameKind.DATA, link.peer, seq, Body(Msg.BYE).encode(),
                  before[0] if before is not None else b"").encode()
    sealed = link._seal(frame)
    await link.transport.publish(topics.peer_topic(link.table, link.peer), sealed)
    kept = link.endpoint._outbox.positions.get(seq)
    assert kept is not None and proves_fork((kept[1], sealed), link.table, link.peer)
    return sealed


def test_a_fork_shown_to_one_seat_too_large_for_a_claim_convicts_at_every_seat() -> None:
    """The second frame reaches one seat only and is larger than a claim's evidence may
    be: that seat publishes both frames again on the forker's topic, and every seat
    finds the fork itself and blames its signer."""
    hub = MemoryHub()
    sessions = table(hub, bots(["random"] * 4), Options(lives=1))
    forker, target = sessions[3], sessions[1]  # seats 2 and 0

    async def scenario() -> list[MatchOutcome | BaseException]:
        tasks = [asyncio.create_task(s.run()) for s in sessions]
        while not (forker.hand is not None and forker.hand.step > 6):
            await asyncio.sleep(0.01)
        seq = forker.link.endpoint.high_water
        inbox = target.link.endpoint._inboxes[forker.link.peer]
        while inbox.next_seq <= seq:  # the target holds the frame the fork replaces
            await asyncio.sleep(0.001)
        _fork_to(forker, target, seq, b"\x00" * (MAX_ENVELOPE + 1024))
        return list(await asyncio.gather(*tasks, return_exceptions=True))

    outcomes = run(scenario(), MATCH_PATIENCE)
    for i, outcome in enumerate(outcomes):
        if i == 3:
            continue
        assert isinstance(outcome, MatchOutcome), outcome
        assert [b for b in outcome.blames if "equivocation" in b], (i, outcome.blames)
        assert all(b.startswith("seat 2: ") for b in outcome.blames), outcome.blames


def _fork_to(forker: Session, target: Session, seq: int, padding: bytes) -> None:
    """Deliver to ``target`` alone a second frame of ``forker`` at ``seq``, signed by it."""
    link = forker.link
    before = link.endpoint._outbox.positions.get(seq - 1)
    frame = Frame(FrameKind.DATA, link.peer, seq, Body(Msg.BYE).encode() + padding,
                  before[0] if before is not None else b"").encode()
    topic = topics.peer_topic(link.table, link.peer)
    transport = target.link.transport
    assert isinstance(transport, MemoryTransport)
    transport._put(Message(topic, link._seal(frame)))


def test_a_fork_is_proven_only_by_two_signed_frames_of_its_peer() -> None:
    hub = MemoryHub()
    one, other = (table(hub, bots(["random"] * 3), Options(lives=1))[i].link for i in (1, 2))
    first = one._seal(Frame(FrameKind.DATA, one.peer, 1, b"a").encode())
    second = one._seal(Frame(FrameKind.DATA, one.peer, 1, b"b").encode())
    theirs = other._seal(Frame(FrameKind.DATA, other.peer, 1, b"b").encode())
    assert proves_fork((first, second), one.table, one.peer)
    assert not proves_fork((first, first), one.table, one.peer)  # the same frame twice
    assert not proves_fork((first, theirs), one.table, one.peer)  # another's frame
    assert not proves_fork((first, second), "elm", one.peer)  # another table's
    assert not proves_fork((first,), one.table, one.peer)
    chained = one._seal(Frame(FrameKind.DATA, one.peer, 2, b"c", bytes(16)).encode())
    assert proves_fork((first, chained), one.table, one.peer)  # not chained to #1


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(replay=st.sampled_from([0.0, 0.03, 0.1]), split=st.integers(0, 4),
       every=st.integers(8, 30), seed=st.integers(0, 2**16))
def test_no_honest_seat_is_blamed_whatever_the_hostile_broker_does(
        replay: float, split: int, every: int, seed: int) -> None:
    """Random replays and split views (of session ``split``; 0 and 4: nobody) on random
    schedules: every seat ends with one result and no blame at all, the seat shown the
    split view too. (It may fall far behind, once put out of the match: the others stay,
    answering its resends, until it has echoed their last frames.)"""
    hub = MemoryHub()
    sessions = table(hub, bots(["random"] * 4), Options(lives=1), seed=seed % 97 + 1)
    victim = split if 0 < split < 4 else -1
    hub.hostile = Hostile(replay=replay, split=sessions[victim].link.peer if victim > 0 else "",
                          split_every=every, seed=seed)
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    _honest_ends(outcomes)
