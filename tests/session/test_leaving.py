"""Leaving never pays at a Lodam table: the seat leading on counters that leaves past its
grace time, or is put out for its silence, ends below every seat that stayed and wins
nothing, and every honest peer reports the same result (machines on a fake clock)."""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.games import get_game
from lodam_p2p.games.lodam import Options
from lodam_p2p.session.course import Timing
from lodam_p2p.session.seat import TableMachine
from tests.session.departures import honest_outcomes, leave, sole_leader
from tests.session.helpers import bots
from tests.session.machines import Router, machines

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)


def knocked_out(table: Sequence[TableMachine]) -> list[int]:
    """The seats the watcher's match has out of counters."""
    match = table[0].match
    return [] if match is None else [s for s, life in enumerate(match.lives) if life == 0]


def test_the_lodam_leader_who_leaves_past_its_grace_time_ends_last() -> None:
    table = machines(bots(["random"] * 4), Options(lives=2), timing=TIMING, seed=3)
    router = Router(table)
    router.start()
    router.until("a seat is out of counters and one seat leads",
                 lambda: sole_leader(table) is not None and bool(knocked_out(table)))
    leader, beaten = sole_leader(table), knocked_out(table)
    assert leader is not None
    leave(router, table[1 + leader])
    router.play_out()
    outcome = honest_outcomes(router.machines)[0]
    # it left holding the most counters: the scores alone would have made it the winner
    assert outcome.lives[leader] > max(v for s, v in enumerate(outcome.lives) if s != leader)
    assert outcome.winners and leader not in outcome.winners
    # below every seat that stayed, even one beaten at the cards before it left
    assert outcome.standings[-1] == leader and sorted(outcome.standings) == [0, 1, 2, 3]
    assert all(outcome.standings.index(s) < outcome.standings.index(leader) for s in beaten)
    assert any(b.startswith(f"seat {leader}: left: ") for b in outcome.blames)


def test_the_winning_lodam_leader_put_out_for_silence_ends_last() -> None:
    # Winning Lodam: a seat put out keeps the counters it gained; they must not place it
    table = machines(bots(["random"] * 4), Options(lives=3, winning=True), timing=TIMING,
                     seed=5)
    router = Router(table)
    router.start()
    router.until("one seat leads on counters", lambda: sole_leader(table) is not None)
    leader = sole_leader(table)
    assert leader is not None
    router.mute.add(table[1 + leader].me)  # connected, and never answers again
    router.play_out()
    stayed = [m for i, m in enumerate(table) if i != 1 + leader]
    outcome = honest_outcomes(stayed)[0]
    assert outcome.lives[leader] >= 1
    assert outcome.winners and leader not in outcome.winners
    assert outcome.standings[-1] == leader
    assert outcome.blames and all(b.startswith(f"seat {leader}: timeout") for b in outcome.blames)


def test_the_seats_that_left_are_read_from_the_blames_and_the_match() -> None:
    lorum = get_game("lorum")
    seat = machines(bots(["random"] * 4), lorum.default_options(), timing=TIMING,
                    game=lorum)[1]
    seat.game, seat.match = lorum, lorum.start_match(lorum.default_options(), 4, 0)
    # a breach long ago, then a run of three void hands: two blamed, one a return
    seat.blames = ["seat 1: timeout: silent (hand 3)", "seat 3: play: refused (hand 9)",
                   "seat 2: timeout: silent (hand 10)"]
    seat.hand_no, seat.voids_in_row = 12, 3
    assert seat.ending.departed(early=False) == []  # a Lorum breach alone is no leaving
    assert seat.ending.departed(early=True) == [3, 2]  # the later blamed left later
    seat.blames.append("seat 0: left: away for 40 s (hand 12)")
    assert seat.ending.departed(early=False) == [0]
    seat.ending.drawn = True  # a draw names nobody for ending the match
    assert seat.ending.departed(early=True) == [0]


def test_a_lodam_seat_put_out_has_left_and_one_beaten_at_the_cards_has_not() -> None:
    lodam = get_game("lodam")
    seat = machines(bots(["random"] * 4), Options(lives=2), timing=TIMING)[1]
    seat.game, seat.match = lodam, lodam.start_match(Options(lives=2), 4, 0)
    seat.match.settle([0, 0, -2, 0])  # seat 2 is beaten at the cards
    lodam.put_out(seat.match, 1)
    seat.blames = ["seat 1: revoke: held a heart (hand 2)"]
    assert seat.ending.departed(early=False) == [1]
