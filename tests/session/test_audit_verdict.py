"""A verdict the audit reaches ends the hand, but never before the seat has sent what the
hand made: its own audit opening above all, which the others need to reach the verdict.

On the machines' router a seat early in the order takes the last card and every other
seat's opening in one pass: it opens its own secrets and convicts the revoker in that
pass. Its opening must still go out, or every other seat waits for it and votes the
honest seat out for silence."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.course import Timing
from lodam_p2p.tableplan import SeatPlan
from tests.session.helpers import bots
from tests.session.machines import Router, machines
from tests.session.revoker import Revoker, cheating

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)
REVOKER = 2


def test_an_audit_verdict_reached_in_the_pass_that_opens_a_seats_secrets() -> None:
    cheat = Revoker()
    plans = bots(["random"] * 4)
    plans[REVOKER] = SeatPlan("cheat", cheat, "bot:cheat")
    table = machines(plans, Options(lives=2), timing=TIMING)
    cheating(table[1 + REVOKER])
    router = Router(table)
    router.start()
    router.play_out()
    assert cheat.revoked
    outcomes = [m.outcome for m in table]
    for outcome in outcomes:
        assert outcome is not None
        assert outcome.blames and all(b.startswith(f"seat {REVOKER}: revoke")
                                      for b in outcome.blames), outcome.blames
        assert REVOKER not in outcome.winners and outcome.lives[REVOKER] == 0
    first = outcomes[0]
    assert first is not None
    assert all(o is not None and o.to_json() == first.to_json() for o in outcomes)
