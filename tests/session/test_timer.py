"""The session's next deadline (``Session.timer``): every wait its clocks keep is there,
so the loop sleeps until the deadline and no longer polls."""

from __future__ import annotations

import pytest

from lodam_p2p.games.lodam import Options
from lodam_p2p.session import Session, Timing
from lodam_p2p.session.course import SessionPhase
from lodam_p2p.session.lot import Lot
from lodam_p2p.session.rejoin import COUNTDOWN_EVERY
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import bots, table

TIMING = Timing(timeout_s=7.0, grace_s=40.0, linger_s=2.0, lobby_s=90.0)


@pytest.fixture
def seat() -> Session:
    """Seat 0's session, not running: its clocks are set by hand."""
    return table(MemoryHub(), bots(["random"] * 3), Options(), timing=TIMING)[1]


def test_each_phase_names_its_deadline(seat: Session) -> None:
    seat.phase, seat.lobby_since = SessionPhase.LOBBY, 100.0
    assert seat.timer() == 190.0
    seat.phase, seat.lot_since = SessionPhase.LOT, 50.0
    seat.seat, seat.lot = 0, Lot(b"oak", 3, 0, bytes)
    assert seat.timer() == 57.0  # the lot waits for seats 1 and 2
    seat.clocks.silence.voted.add((0, 0, 1))
    assert seat.timer() is None  # voted on seat 1: only what comes can move it
    seat.phase, seat.grace_until = SessionPhase.GRACE, 70.0
    assert seat.timer() == 70.0
    seat.phase, seat.linger_until = SessionPhase.LINGER, 10.0
    assert seat.timer() == 17.0  # the linger, and a protocol step for a late seat
    seat.phase, seat.coming_back.deadline = SessionPhase.REJOIN, 33.0
    assert seat.timer() == 33.0
    seat.phase = SessionPhase.DONE
    assert seat.timer() is None


def test_an_away_seat_brings_its_countdown_and_its_grace(seat: Session) -> None:
    seat.phase = SessionPhase.MATCH
    assert seat.timer() is None  # no hand yet: only a message can move it
    seat.away[2] = 5.0
    assert seat.timer() == 5.0 + min(COUNTDOWN_EVERY, TIMING.grace_s)
    seat.away_seats.countdown_at[2] = 44.0
    assert seat.timer() == 45.0  # the grace runs out before the next countdown


def test_every_other_seat_done_bounds_the_wait(seat: Session) -> None:
    seat.phase, seat.clocks.others_done_at = SessionPhase.GRACE, 1.0
    seat.grace_until = 100.0
    assert seat.timer() == 8.0


def test_an_away_seat_holds_the_hands_deadline(seat: Session) -> None:
    """While a seat is away the hand's clocks are held: its vote deadline, which would
    soon be past, is no deadline, and the loop sleeps until the countdown."""
    seat.phase = SessionPhase.MATCH
    seat.hand, seat.clocks.silence.awaited = Waiting(), (1, 3)
    seat.ballot.step, seat.ballot.since = (1, 3), {2: 0.0}
    assert seat.timer() == TIMING.timeout_s  # seat 2's step, then the vote
    seat.away[2] = 5.0
    assert seat.timer() == 5.0 + min(COUNTDOWN_EVERY, TIMING.grace_s)
    seat.away_seats.seat_back(2)
    assert seat.timer() == TIMING.timeout_s  # seat 2 is back: its wait resumes


def test_a_pending_vote_brings_the_accuseds_deadline(seat: Session) -> None:
    """A vote this machine cannot check yet wakes it when it can: at the accused's
    deadline here, even when the accused is this seat itself (it never votes on
    itself, but counts the votes against it)."""
    seat.phase, seat.seat = SessionPhase.MATCH, 0
    seat.hand, seat.clocks.silence.awaited = Waiting(), (1, 3)
    seat.ballot.step, seat.ballot.since = (1, 3), {0: 2.0}
    assert seat.timer() is None  # its own decision: no vote of its own to cast
    seat.ballot.pending[(1, 3, 0)] = {1}
    assert seat.timer() == 2.0 + TIMING.timeout_s


class Waiting:
    """A hand standing for the test, at step 3, followed by seat 0."""

    step = 3
    me = 0
