"""An exchange's acceptor re-masks just before its own next decision, in the frames that
carry it, so that the next seat to act never waits a trip through the broker for a
re-mask that its decision does not read (lodam_p2p/session/trading.py)."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.course import Timing
from lodam_p2p.session.movebody import DECISIONS, ExchangeMove, Tag
from lodam_p2p.session.wire import Body, Msg
from tests.session.helpers import bots
from tests.session.machines import Router, machines

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)


def _tag(body: Body) -> Tag | None:
    return ExchangeMove.read(body).tag if body.kind is Msg.MOVE else None


def test_an_acceptors_remask_travels_with_its_next_decision() -> None:
    table = machines(bots(["random"] * 4), Options(lives=2), timing=TIMING, seed=7)
    router = Router(table)
    router.start()
    router.play_out()
    watcher, *seats = table
    alone = 0
    for seat in seats:
        sent = router.sent[seat.me]
        for index, body in enumerate(sent):
            if _tag(body) is not Tag.REMASK:
                continue
            alone += 1
            after = sent[index + 1]
            # the seat's very next body: its decision at the same step, or the deal's
            # audit opening when the deal ended before it had to decide again
            assert after.hand == body.hand
            assert (after.kind is Msg.NOTES
                    or (_tag(after) in DECISIONS and after.step == body.step)), (body, after)
    assert alone > 0, "no exchange was accepted: nothing was tried"
    outcomes = [machine.outcome for machine in table]
    assert outcomes[0] is not None
    assert all(o is not None and o.to_json() == outcomes[0].to_json() for o in outcomes)
    assert not watcher.blames


def test_the_next_seat_to_act_is_not_held_for_the_acceptors_remask() -> None:
    """Somewhere in the match a seat other than the acceptor decided while the
    acceptor's re-mask was still due: the table did not wait for it."""
    table = machines(bots(["random"] * 4), Options(lives=2), timing=TIMING, seed=7)
    router = Router(table)
    overtaken = 0
    watcher = table[0]

    def look() -> bool:
        nonlocal overtaken
        hand = watcher.hand
        if hand is not None and hasattr(hand, "trading"):
            due = hand.awaited()
            waiting = hand.trading.due
            if due is not None and due[1] is not Tag.REMASK and waiting - {due[0]}:
                overtaken += 1
        return all(machine.done for machine in table)

    router.start()
    for _ in range(200_000):
        if look() or not router.pump():
            if all(machine.done for machine in table):
                break
            router.now = min(d for m in table if not m.done and (d := m.timer()) is not None)
    assert all(machine.done for machine in table)
    assert overtaken > 0
