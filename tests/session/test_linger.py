"""After its result a session lingers for the seats still playing, never for a seat put
out of the match; a seat every other result puts out ends at once, and one that has cast
its vote sleeps until something comes (on the fake clock of
:mod:`tests.session.machines`)."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.link import Delivered
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import Body, Msg, raw_public
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


class _CutOff(Router):
    """A router that, once ``cut`` is set, carries nothing from one machine and nothing
    to it but the others' results: a seat that lost the table, which its own view of the
    hand cannot tell."""

    def __init__(self, table: list[TableMachine], lost: TableMachine) -> None:
        super().__init__(table)
        self.lost = lost
        self.cut = False
        #: the others' results still reach the lost seat
        self.results = True

    def deliver(self, sender: TableMachine, data: bytes) -> None:
        if not self.cut:
            super().deliver(sender, data)
            return
        if sender is self.lost:
            return
        pubkey = raw_public(sender.identity)
        result = self.results and Body.decode(data).kind is Msg.RESULT
        for machine in self.machines:
            if machine is not sender and (machine is not self.lost or result):
                machine.receive(Delivered(sender.me, pubkey, data), self.now)


def test_a_seat_every_result_puts_out_ends_at_once() -> None:
    """Seat 1 loses the table in the first deal and is voted out for silence. Its own
    view of the hand stands still, so only the others' results tell it the match went on
    without it: once each of them names it, it ends, with no time limit waited."""
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    lost = table[2]  # seat 1
    router = _CutOff(table, lost)
    router.start()
    router.until("the first deal begun", lambda: all(m.hand is not None for m in table))
    router.cut = True
    router.play_out()
    assert all(m.done for m in table)
    assert all(m.blames[0].startswith("seat 1: timeout:") for m in table if m is not lost)
    vote = lost.clocks.others_done_at
    assert vote is not None and lost.clocks.put_out_by_all()
    assert router.now == vote  # the seat put out waited for nothing after the results


def test_a_seat_that_voted_sleeps_until_something_comes() -> None:
    """Seat 1, cut off, votes the others out for silence. Its vote is cast and its wait's
    deadline is past: the next deadline it names is a later one (or none), so a runner
    sleeps instead of waking at once, over and over, until a message comes."""
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    lost = table[2]  # seat 1
    router = _CutOff(table, lost)
    router.results = False
    router.start()
    router.until("the first deal begun", lambda: all(m.hand is not None for m in table))
    router.cut = True
    router.settle()
    due = lost.timer()
    assert due is not None
    router.now = due
    router.settle()
    assert lost.clocks.silence.voted and not lost.done  # it voted, and nothing came back
    after = lost.timer()
    assert after is None or after > router.now


def test_a_seat_that_voted_in_the_lot_sleeps_too() -> None:
    """The same in the draw for the first dealer: seat 1, cut off while the lot is
    drawn, votes on the seat it waits for, and then names no deadline already past."""
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    lost = table[2]  # seat 1
    router = _CutOff(table, lost)
    router.results = False
    router.start()
    router.until("the lot begun", lambda: lost.lot is not None)
    router.cut = True
    router.settle()
    assert lost.phase is SessionPhase.LOT
    due = lost.timer()
    assert due is not None
    router.now = due
    router.settle()
    assert lost.clocks.silence.voted and lost.phase is SessionPhase.LOT
    after = lost.timer()
    assert after is None or after > router.now
