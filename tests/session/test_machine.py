"""The table machine on its own: no event loop, no link, a clock that moves only when the
test moves it (see :mod:`tests.session.machines`)."""

from __future__ import annotations

import asyncio

import pytest

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Notice
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.effects import AskPlayer, Decided, Tell
from lodam_p2p.session.wire import Msg
from tests.session.helpers import bots
from tests.session.machines import Router, machines

#: The limits of a table: a seat is silent after 20 s of the fake clock.
TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)


def test_no_event_loop_is_running() -> None:
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()


def test_a_whole_match_of_machines_on_a_fake_clock() -> None:
    table = machines(bots(["random", "heuristic", "random"]), Options(lives=1), timing=TIMING)
    router = Router(table)
    router.start()
    router.play_out()
    outcomes = [m.outcome for m in table]
    first = outcomes[0]
    assert first is not None and first.winners and first.blames == ()
    assert first.deals >= 1 and first.audits_passed == first.deals
    assert all(o is not None and o.to_json() == first.to_json() for o in outcomes)
    assert all(m.unexpected == 0 and m.phase is SessionPhase.DONE for m in table)
    # every seat's decisions went out as events, and the seated table was admitted
    assert all(router.asked[m.me] for m in table[1:]) and not router.asked[table[0].me]
    peers = frozenset(m.me for m in table)
    assert all(router.admitted[m.me] == peers for m in table)
    # the clock moved only when nothing else could: to the lingers' ends at most
    assert router.now <= 1000.0 + TIMING.linger_s + TIMING.timeout_s


def test_time_is_what_the_machine_was_last_given() -> None:
    host, seat, *_ = machines(bots(["random"] * 3), Options(), timing=TIMING)
    seat.start(12.5)
    assert seat.now() == 12.5 and seat.lobby_since == 12.5
    seat.handle_timer(14.0)
    assert seat.now() == 14.0
    assert [b.kind for b in seat.outgoing] == [Msg.JOIN]
    host.start(3.0)
    assert host.retained and host.retained[0][1]  # the lobby announcement, to publish


def test_a_silent_seat_is_found_only_when_the_clock_passes_the_limit() -> None:
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    router = Router(table)
    silent = table[2]  # seat 1: its protocol steps go out, its player never answers
    router.mute.add(silent.me)
    router.start()
    router.settle()
    hand = silent.hand
    assert hand is not None and hand.dealt and hand.my_turn()
    honest = [m for m in table if m is not silent]
    assert all(m.blames == [] for m in table)
    start = router.now
    due = table[1].timer()
    assert due == start + TIMING.timeout_s  # the wait for seat 1, as the runner sleeps
    router.now = due - 0.001
    router.settle()
    assert all(m.blames == [] for m in table)
    assert not any(b.kind is Msg.TIMEOUT for m in honest for b in router.sent[m.me])
    router.now = due
    router.settle()
    votes = [b for m in honest for b in router.sent[m.me] if b.kind is Msg.TIMEOUT]
    assert {b.args for b in votes} == {(1,)}
    for machine in table:
        assert machine.blames and machine.blames[0].startswith("seat 1: timeout:"), \
            machine.blames


def test_a_decision_is_an_event_and_comes_back_through_receive() -> None:
    table = machines(bots(["random"] * 3), Options(lives=1), timing=TIMING)
    router = Router(table)
    router.mute.update(m.me for m in table)  # nobody answers: the table stops at a turn
    router.start()
    router.settle()
    waiting = [m for m in table if m.hand is not None and m.hand.my_turn()]
    assert len(waiting) == 1 and router.asked == {}
    seat = waiting[0]
    assert seat.hand is not None
    view, step, sent = seat.hand.view(), seat.hand.step, len(router.sent[seat.me])
    seat.asking.asked = None  # ask again, and keep the event this time
    seat.handle_timer(router.now)
    event = seat.events.pop()
    assert event == AskPlayer(seat.hand_no, step, view) and seat.events == []
    seat.receive(Decided(seat.hand_no, step + 1, view.legal[0]), router.now)  # stale
    seat.receive(Decided(seat.hand_no, step, None), router.now)  # the player failed
    assert seat.outgoing == [] and seat.hand.step == step
    refused, asked = seat.events  # the refusal told, then asked once more
    assert isinstance(refused, Tell) and isinstance(refused.event, Notice)
    assert refused.event.text.startswith("refused: None")
    assert asked == AskPlayer(seat.hand_no, step, view)
    seat.receive(Decided(seat.hand_no, step, view.legal[0]), router.now)
    router.mute.clear()
    router.settle()
    assert seat.hand is None or seat.hand.step > step or seat.hand_no > 1
    assert len(router.sent[seat.me]) > sent and seat.unexpected == 0
