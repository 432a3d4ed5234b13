"""Leaving never pays at a Lorum table: the seat leading on points that leaves past its
grace time, or that goes silent until the table gives up on it, ends the match last and
wins nothing, and every honest peer reports the same result, standings included
(machines on a fake clock)."""

from __future__ import annotations

from lodam_p2p.cli.netrun import result_json
from lodam_p2p.session.course import Timing
from tests.lorum_net.helpers import LORUM
from tests.session.departures import honest_outcomes, leave, sole_leader
from tests.session.helpers import bots
from tests.session.machines import Router, machines

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)


def test_the_lorum_leader_who_leaves_past_its_grace_time_ends_last() -> None:
    table = machines(bots(["random"] * 4), LORUM.default_options(), timing=TIMING, seed=2,
                     game=LORUM)
    router = Router(table)
    router.start()
    router.until("one seat leads on points", lambda: sole_leader(table) is not None)
    leader = sole_leader(table)
    assert leader is not None
    leave(router, table[1 + leader])
    router.play_out()
    outcome = honest_outcomes(router.machines)[0]
    # it left with the fewest points: the scores alone made it the winner
    assert outcome.lives[leader] < min(v for s, v in enumerate(outcome.lives) if s != leader)
    assert outcome.winners and leader not in outcome.winners
    assert outcome.standings[-1] == leader and sorted(outcome.standings) == [0, 1, 2, 3]
    assert any(b.startswith(f"seat {leader}: left: ") for b in outcome.blames)
    line = result_json(outcome)
    # the shape of the line is docs/results.md's (tests/test_newcomer.py holds it there)
    assert {"table", "game", "winners", "deals", "blames", "standings"} <= set(line)
    assert line["standings"] == list(outcome.standings)


def test_the_lorum_leader_silent_until_the_table_gives_up_ends_last() -> None:
    # no breach points: three silent deals in a row cost the leader nothing but the match
    options = LORUM.parse_options(["breach_points=0"])
    table = machines(bots(["random"] * 4), options, timing=TIMING, seed=4, game=LORUM)
    router = Router(table)
    router.start()
    router.until("one seat leads on points", lambda: sole_leader(table) is not None)
    leader = sole_leader(table)
    assert leader is not None
    router.mute.add(table[1 + leader].me)  # connected, and never answers again
    router.play_out()
    stayed = [m for i, m in enumerate(table) if i != 1 + leader]
    outcome = honest_outcomes(stayed)[0]
    assert outcome.lives[leader] < min(v for s, v in enumerate(outcome.lives) if s != leader)
    assert outcome.winners and leader not in outcome.winners
    assert outcome.standings[-1] == leader
    assert len(outcome.blames) >= 3
    assert all(b.startswith(f"seat {leader}: ") for b in outcome.blames[-3:])
