"""After its result a session lingers for the seats still playing, never for a seat put
out of the match (on the fake clock of :mod:`tests.session.machines`)."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import Body, Msg
from tests.session.helpers import bots
from tests.session.machines import Router, machines

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)


def test_nobody_lingers_for_a_seat_put_out_that_sends_no_result() -> None:
    """Seat 1 is voted out for silence and then says nothing more while it stays
    connected, as a cheater still sitting in the hand the others voided does (it sends
    its result only a time limit after theirs): the others end as soon as their own
    results are in, with the clock where the vote left it."""
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    router = Router(table)
    out = table[2]  # seat 1
    router.mute.add(out.me)
    router.start()
    router.settle()
    due = table[1].timer()
    assert due is not None
    router.now = due
    router.until("seat 1 voted out everywhere", lambda: all(m.blames for m in table))
    assert all(m.blames[0].startswith("seat 1: timeout:") for m in table)
    assert all(m.outcome is None for m in table)  # the others play on
    router.machines.remove(out)  # from now on it says nothing
    router.play_out()
    staying = [m for m in table if m is not out]
    assert all(m.phase is SessionPhase.DONE and m.online(out.me) for m in staying)
    first = staying[0].outcome
    assert first is not None and first.winners and 1 not in first.winners
    assert all(m.outcome is not None and m.outcome.to_json() == first.to_json()
               for m in staying)
    assert router.now == due  # no linger waited for seat 1


class _ResultLost(Router):
    """A router that loses every RESULT of one machine."""

    def __init__(self, table: list[TableMachine], late: TableMachine) -> None:
        super().__init__(table)
        self.late = late

    def deliver(self, sender: TableMachine, data: bytes) -> None:
        if sender is self.late and Body.decode(data).kind is Msg.RESULT:
            return
        super().deliver(sender, data)


def test_a_connected_seat_still_in_the_match_is_waited_for() -> None:
    """A seat of the match whose result does not come holds the others' linger, up to a
    protocol step past it."""
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    late = table[2]
    router = _ResultLost(table, late)
    router.start()
    router.play_out()
    waited = [m for m in table if m is not late]
    assert all(m.done and m.online(late.me) for m in table)
    assert router.now == max(m.linger_until for m in waited) + TIMING.timeout_s
