"""A vote withheld stalls nothing (lodam_p2p/session/silence.py): three seats, one
silent, and its partner never votes, so the one honest seat left can never gather the
two votes that convict. Once its own vote is counted and the grace time and
STALL_LIMITS more limits pass, the hand is void without blame and the match ends as a
draw among the seats still playing, at the honest seat and the host's watcher alike —
never an award to anyone."""

from __future__ import annotations

import pytest

from lodam_p2p.session.course import SessionPhase
from lodam_p2p.session.silence import STALL_LIMITS
from tests.session.test_votes import TIMING, seat_of, stopped_at_a_turn


def test_a_partner_that_never_votes_cannot_stall_the_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    router, table, silent = stopped_at_a_turn(3)
    watcher, *seats = table
    partner, honest = [m for m in seats if m is not silent]
    monkeypatch.setattr(partner.clocks.silence, "vote_timeout", lambda _silent: None)
    router.now += TIMING.timeout_s
    router.settle()
    assert honest.clocks.silence.voted, "the honest seat never voted"
    # short of the stall's end, nothing is decided: one vote convicts nobody
    router.now += TIMING.grace_s + TIMING.timeout_s * STALL_LIMITS - 1
    router.settle()
    assert honest.outcome is None and not honest.blames and not watcher.blames
    router.now += 2
    router.until("the honest seat ends the match", lambda: honest.outcome is not None)
    router.play_out()
    outcome = honest.outcome
    assert outcome is not None
    assert tuple(sorted(outcome.winners)) == tuple(sorted(seat_of(m) for m in seats))
    assert not outcome.blames
    assert watcher.outcome is not None and watcher.outcome.to_json() == outcome.to_json()
    assert honest.phase is SessionPhase.DONE and watcher.phase is SessionPhase.DONE
    assert seat_of(silent) in outcome.winners  # a draw, not an award to the accuser
