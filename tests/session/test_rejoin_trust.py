"""A returning seat checks what it is told: a lying coordinator cannot seat it in a
wrong match state, and no REJOIN, RESUME or ATTEST body, however mangled, breaks a peer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.games.lodam import Match, Options
from lodam_p2p.session import Session
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.journal import (
    Journal,
    SeatJournal,
    check_snapshot,
    contradiction,
    match_snapshot,
)
from lodam_p2p.session.keys import seeded
from lodam_p2p.session.link import Delivered, Link
from lodam_p2p.session.table import _sessions
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots
from tests.support.aio import until
from tests.support.virtual import run_on_table_clock

#: Patient protocol timeouts and a long rejoin grace: nobody may be blamed here.
TIMING = Timing(timeout_s=60.0, grace_s=60.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                lobby_s=30.0)
PATIENCE = 120.0


# --- the checks themselves ------------------------------------------------------------


def _snapshot(hand_no: int = 4, deals: int = 2) -> dict[str, Any]:
    match = Match.start(Options(lives=3), 4, 1)
    match.deals_played = deals
    return json.loads(json.dumps(match_snapshot(match, hand_no, deals, [])))


def test_a_state_that_only_moves_the_hand_on_follows_the_journal() -> None:
    kept = _snapshot()
    assert contradiction(check_snapshot(_snapshot(hand_no=5), 4), kept) is None


@pytest.mark.parametrize(("change", "why"), [
    ({"lives": [3, 3, 3, 9]}, "lives changed without a deal played"),
    ({"dealer": 3}, "dealer changed without a deal played"),
    ({"hand_no": 3}, "before the journal's hand"),
    ({"deals_played": 9}, "7 deals played in 1 hands"),
    ({"deals_played": 1}, "-1 deals played"),
    ({"audits": 0}, "fewer audits"),
])
def test_a_state_the_journal_contradicts_is_refused(change: dict[str, Any], why: str) -> None:
    told = _snapshot(hand_no=5) | change
    assert why in (contradiction(check_snapshot(told, 4), _snapshot()) or "")


def test_an_eliminated_seat_cannot_be_brought_back() -> None:
    kept = _snapshot()
    kept["eliminated_in"][2], kept["active"][2], kept["lives"][2] = 1, False, 0
    told = json.loads(json.dumps(kept)) | {"hand_no": 6, "deals_played": 3}
    told["eliminated_in"][2], told["active"][2], told["lives"][2] = None, True, 2
    assert contradiction(check_snapshot(told, 4), kept) == "seat 2, eliminated, is back in"


@pytest.mark.parametrize("field", ["hand_no", "audits", "blames", "lives", "dealer", "active",
                                   "deals_played", "eliminated_in", "is_over", "winners"])
@pytest.mark.parametrize("value", [None, True, -1, 2**40, 1.5, "3", [], [None] * 4, {"a": 1},
                                   ["x"] * 100])
def test_every_field_of_a_told_state_is_checked_strictly(field: str, value: object) -> None:
    told = _snapshot() | {field: value}
    with contextlib.suppress(ValueError):
        assert check_snapshot(told, 4) is told  # only where the value fits the field
        assert (field, value) in [("is_over", True), ("eliminated_in", [None] * 4),
                                  ("winners", []), ("blames", [])]


# --- at the table ------------------------------------------------------------------------


def _pack(state: dict[str, Any]) -> bytes:
    return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()


def _lie(state: dict[str, Any]) -> dict[str, Any]:
    """Every seat but the liar's own loses its counters."""
    return state | {"lives": [1 if s == 0 else 0 for s in range(len(state["lives"]))]}


class _Table:
    """A 4-seat match on a hub, one seat killed mid-hand and restarted from its journal."""

    def __init__(self, tmp_path: Path, timing: Timing = TIMING) -> None:
        self.hub = MemoryHub()
        self.journal = Journal.open(tmp_path / "state")
        self.timing = timing
        self.sessions = _sessions("oak", Options(lives=2), 4,
                                  bots(["random", "heuristic", "random", "heuristic"]),
                                  connect=self.hub.transport, seed=3, timing=timing,
                                  spectator=None, journal=self.journal)
        self.tasks = {s: asyncio.create_task(s.run()) for s in self.sessions}
        self.victim = self.sessions[3]

    async def kill_mid_hand(self) -> None:
        victim = self.victim
        await until("a hand dealt at the victim",
                     lambda: victim.hand_no >= 2 and victim.hand is not None
                     and victim.hand.dealt)
        victim.link.transport.abort()
        self.tasks.pop(victim).cancel()
        others = [s for s in self.sessions if s is not victim and s.seat is not None]
        await until("every seat sees the victim away", lambda: all(s.away for s in others))

    def seat(self, seat: int) -> Session:
        return next(s for s in self.sessions if s.seat == seat)

    def back(self) -> Session:
        kept = SeatJournal(self.journal, "seat-3", "oak")
        epoch = kept.next_epoch()
        identity = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(kept.entry["identity"]))
        link = Link(self.hub.transport, "oak", identity, heartbeat=0.1, retry=0.1, epoch=epoch)
        return Session(link, plan=bots(["random"] * 4)[3], entropy=seeded(3, 99),
                       timing=self.timing, journal=kept)

    async def close(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.journal.close()


def _lying_coordinator(liar: Session, told: list[dict[str, Any]]) -> None:
    """Make ``liar`` answer REJOIN with a RESUME whose match state is false."""
    def take_rejoin(seat: int, _together: list[int], hand: int = 0) -> None:
        liar.return_desk.asked_back[seat] = hand  # its own RESUME follows a REJOIN it heard
        liar.away.pop(seat, None)
        assert liar.match is not None
        nxt = liar.hand_no + 1
        state = _lie(liar.return_desk.return_state(seat, nxt))
        told.append(state)
        liar.send(Body(Msg.RESUME, liar.hand_no, 0, (seat, nxt, _pack(state))))
    liar.return_desk.take_rejoin = take_rejoin  # type: ignore[method-assign]


async def _a_lie_is_outvoted(tmp_path: Path) -> None:
    table = _Table(tmp_path)
    try:
        await table.kill_mid_hand()
        back = table.back()
        coordinator = table.seat(0 if table.victim.seat != 0 else 1)
        told: list[dict[str, Any]] = []
        _lying_coordinator(coordinator, told)
        taken: list[dict[str, Any]] = []
        resume_here = back.coming_back._resume_here

        def record(nxt: int, state: dict[str, Any]) -> None:
            taken.append(state)
            resume_here(nxt, state)
        back.coming_back._resume_here = record  # type: ignore[method-assign]
        outcomes = await asyncio.gather(*table.tasks.values(), back.run())
    finally:
        await table.close()
    assert told and taken and taken[0]["lives"] != told[0]["lives"]
    assert len({repr(o.to_json()) for o in outcomes}) == 1
    assert outcomes[0].blames == () and outcomes[0].winners


def test_a_lying_coordinator_is_outvoted_by_the_seats_that_played_the_same_deals(
        tmp_path: Path) -> None:
    run_on_table_clock(_a_lie_is_outvoted(tmp_path), PATIENCE * 2)


async def _a_lie_repeated_is_still_refused(tmp_path: Path) -> None:
    timing = Timing(timeout_s=60.0, grace_s=60.0, linger_s=1.0, heartbeat_s=0.1, retry_s=0.1,
                    lobby_s=30.0)
    table = _Table(tmp_path, timing)
    try:
        await table.kill_mid_hand()
        back = table.back()
        back.timing = Timing(timeout_s=60.0, grace_s=3.0, linger_s=1.0, heartbeat_s=0.1,
                             retry_s=0.1, lobby_s=30.0)  # the returning seat gives up soon
        coordinator = table.seat(0 if table.victim.seat != 0 else 1)
        told: list[dict[str, Any]] = []
        _lying_coordinator(coordinator, told)
        accomplice = next(s for s in table.sessions if s.seat not in
                          (None, coordinator.seat, table.victim.seat))
        send = accomplice.send

        def echo_the_lie(body: Body) -> None:
            if body.kind is Msg.ATTEST:
                body = Body(Msg.ATTEST, body.hand, 0, (*body.args[:2], _pack(told[-1])))
            send(body)
        accomplice.send = echo_the_lie  # type: ignore[method-assign]
        with pytest.raises(Exception, match="did not take this seat back"):
            await back.run()
    finally:
        await table.close()
    assert told and back.phase is SessionPhase.REJOIN and back.match is None


def test_a_lie_told_by_a_majority_is_refused_when_the_journal_contradicts_it(
        tmp_path: Path) -> None:
    run_on_table_clock(_a_lie_repeated_is_still_refused(tmp_path), PATIENCE * 2)


# --- mangled bodies ----------------------------------------------------------------------


def _mangled(rng: random.Random, good: dict[str, Any]) -> bytes:
    """A match state blob, damaged one of several ways."""
    state = json.loads(json.dumps(good))
    way = rng.randrange(5)
    if way == 0:
        return rng.randbytes(rng.randrange(1, 64))
    if way == 1:
        return b"[" * rng.randrange(1, 4000)
    field = rng.choice(sorted(state))
    state[field] = rng.choice([None, -1, 2**70, 0.5, "x", {}, [1] * 40])  # none fits
    if way == 2:
        return _pack(state)
    if way == 3:
        return _pack({"outcome": rng.choice([None, 1, {}, {"winners": "x"}, state])})
    return _pack(state | {"hand_no": rng.randrange(2**32)})


def _bodies(rng: random.Random, good: dict[str, Any], seats: int) -> Body:
    kind = rng.choice([Msg.REJOIN, Msg.RESUME, Msg.ATTEST])
    hand = rng.choice([0, 1, 2, 3, rng.randrange(2**32)])
    if kind is Msg.REJOIN:
        together = rng.sample(range(256), rng.choice([0, 1, 2, 16]))
        return Body(kind, hand, 0, (rng.randrange(2**32), rng.choice([[], together])))
    seat = rng.choice([*range(seats), rng.randrange(256)])
    nxt = rng.choice([good["hand_no"], good["hand_no"] + 1, rng.randrange(2**32)])
    return Body(kind, hand, 0, (seat, nxt, _mangled(rng, good)))


def _feed(target: Session, senders: list[Session], rng: random.Random, good: dict[str, Any],
          count: int) -> None:
    for _ in range(count):
        sender = rng.choice([s for s in senders if s is not target])
        body = _bodies(rng, good, 4)
        target.router.take_in(Delivered(sender.me, sender.link.pubkey, body.encode()))
        target.router.advance()


async def _mangled_bodies(tmp_path: Path) -> tuple[int, int, SessionPhase]:
    table = _Table(tmp_path)
    try:
        await table.kill_mid_hand()
        for task in table.tasks.values():  # freeze the table; feed its seats by hand
            task.cancel()
        await asyncio.gather(*table.tasks.values(), return_exceptions=True)
        seated = [s for s in table.sessions if s.seat is not None and s is not table.victim]
        rng = random.Random(5)
        good = match_snapshot(seated[0].match, seated[0].hand_no + 1,  # type: ignore[arg-type]
                              seated[0].audits, seated[0].blames)
        _feed(seated[1], seated, rng, good, 1500)
        back = table.back()
        back.start(back.now())  # back at the table, waiting to resume: not connected, fed by hand
        _feed(back, seated, rng, good, 1500)
        unexpected = sum(s.unexpected for s in [*seated, back])
        return unexpected, back.link.ignored + back.ignored, back.phase
    finally:
        await table.close()


def test_mangled_rejoin_resume_and_attest_bodies_break_no_peer(tmp_path: Path) -> None:
    unexpected, ignored, phase = asyncio.run(
        asyncio.wait_for(_mangled_bodies(tmp_path), PATIENCE * 2))
    assert unexpected == 0 and ignored > 0
    assert phase is SessionPhase.REJOIN  # nothing mangled seated it
