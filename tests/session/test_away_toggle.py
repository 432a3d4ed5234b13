"""Away and back inside the grace time cannot stall a table (protocol/SPEC.md, "Rules
the table enforces"): the table holds its clocks for an away seat as a pause, not a new
start, and after three away periods in which a seat let its own step run out it holds
no more for that seat, which the others then vote out for silence. An away period that
costs the seat no step is never counted against it. On the fake clock of
:mod:`tests.session.machines`."""

from __future__ import annotations

from lodam_p2p.session.away import MAX_AWAY_MISSES
from lodam_p2p.session.course import Timing
from lodam_p2p.session.link import PresenceSeen
from lodam_p2p.session.seat import TableMachine
from tests.session.test_votes import Table, seat_of, stopped_at_a_turn

#: A long grace (the held time one step may get back is capped by it), so that only the
#: count of missed steps can end the stall here.
TIMING = Timing(timeout_s=20.0, grace_s=200.0, linger_s=3.0, lobby_s=600.0)


def toggle(router: Table, seat: TableMachine, online: bool) -> None:
    """``seat``'s presence, as every other machine sees it now."""
    for machine in router.machines:
        if machine is not seat:
            machine.receive(PresenceSeen(seat.me, online), router.now)
    router.settle()


def test_a_seat_that_keeps_dropping_and_coming_back_is_voted_out() -> None:
    """The seat to decide never answers; each time its time is nearly up it drops and
    comes back 10 s later (well inside the grace). The first returns give back the time
    held; after the third missed step the table holds no more, and the seat is voted out
    for silence — never blamed as gone."""
    router, table, staller = stopped_at_a_turn(3, timing=TIMING)
    victim = seat_of(staller)
    for _cycle in range(MAX_AWAY_MISSES + 3):
        due = min(d for m in table if m is not staller and (d := m.timer()) is not None)
        router.now = due - 1.0
        router.settle()
        if all(m.blames for m in table):
            break
        toggle(router, staller, False)
        router.now += 10.0
        router.settle()
        if all(m.blames for m in table):
            break
        toggle(router, staller, True)
    others = [m for m in table if m is not staller]
    assert all(m.blames and m.blames[0].startswith(f"seat {victim}: timeout:") for m in others)
    assert all(m.ballot.misses.get(victim) == MAX_AWAY_MISSES for m in others)
    # put out while away, it is waited for no more: the others play the match to its end
    router.settle()
    assert all(victim not in m.away for m in others)
    router.machines.remove(staller)
    router.play_out()
    first = others[0].outcome
    assert first is not None and victim not in first.winners
    assert all(m.outcome is not None and m.outcome.to_json() == first.to_json()
               for m in others)
    assert [line.split(": ")[:2] for line in first.blames] == [[f"seat {victim}", "timeout"]]


def test_coming_back_just_in_time_again_and_again_is_counted_too() -> None:
    """The seat to decide drops at once and comes back each time just before its clock,
    paused while it is away, would run out: its time counted with every hold as time
    spent has run out all the same, so from the second return on each one is a missed
    step, and after the third the table holds no more and the seat is voted out — long
    before the holds given back to one step reach the grace time."""
    router, table, staller = stopped_at_a_turn(3, timing=TIMING)
    victim = seat_of(staller)
    start = router.now
    for _cycle in range(8):
        toggle(router, staller, False)
        router.now += TIMING.timeout_s - 2.0
        router.settle()
        if all(m.blames for m in table):
            break
        toggle(router, staller, True)
        router.now += 0.5
        router.settle()
    others = [m for m in table if m is not staller]
    assert all(m.blames and m.blames[0].startswith(f"seat {victim}: timeout:") for m in others)
    # four away periods, the last one not held: a fifth would mean a return still paid
    assert router.now - start < 5 * TIMING.timeout_s < TIMING.grace_s


def test_an_away_period_that_costs_no_step_is_not_counted() -> None:
    """A seat that is not awaited drops and comes back, again and again (a flaky link,
    a broker move): no missed step is counted against it, and the seat to decide keeps
    its clock paused while the table holds."""
    router, table, waiting = stopped_at_a_turn(3, timing=TIMING)
    flaky = next(m for m in table[1:] if m is not waiting)
    start = router.now
    for _cycle in range(MAX_AWAY_MISSES + 2):
        toggle(router, flaky, False)
        router.now += TIMING.timeout_s + 5.0  # far past the waiting seat's deadline
        router.settle()
        toggle(router, flaky, True)
    assert not any(m.blames for m in table)
    assert all(not m.ballot.misses for m in table)
    # the held time was given back to the waiting seat: its deadline is still ahead
    held = (MAX_AWAY_MISSES + 2) * (TIMING.timeout_s + 5.0)
    assert table[0].ballot.deadline(seat_of(waiting), TIMING.timeout_s) == \
        start + held + TIMING.timeout_s
