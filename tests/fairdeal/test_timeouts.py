"""A seat that stays silent past the timeout is blamed, in every phase that waits."""

from __future__ import annotations

import pytest

from lodam_p2p.fairdeal import Phase, RemoteProtocolError
from tests.fairdeal.table import Table, make_config

TIMEOUT = 5.0


def _flush_except(table: Table, silent: int) -> None:
    """Deliver everything except what ``silent`` sends (it is never heard from)."""
    moved = True
    while moved:
        moved = False
        for s, hand in table.hands.items():
            out = hand.outgoing()
            if s == silent:
                continue
            for raw in out:
                moved = True
                table.broadcast(s, raw)


def _expire(table: Table, seat: int, since: float) -> RemoteProtocolError:
    hand = table.hands[seat]
    assert hand.timer() == since + TIMEOUT
    hand.handle_timer(since + TIMEOUT - 0.01)  # not yet
    with pytest.raises(RemoteProtocolError) as caught:
        hand.handle_timer(since + TIMEOUT)
    assert hand.phase is Phase.ABORTED
    return caught.value


def test_silent_from_the_start_blamed_for_its_key() -> None:
    table = Table.build(make_config(3, 32, timeout=TIMEOUT))
    _flush_except(table, silent=2)
    err = _expire(table, 0, 0.0)
    assert (err.seat, err.check) == (2, "timeout") and "key" in str(err)


def test_silent_shuffler_blamed_for_its_shuffle() -> None:
    table = Table.build(make_config(3, 32, timeout=TIMEOUT))
    # seat 1 sends its key, then falls silent before its shuffle
    table.broadcast(1, table.hands[1].outgoing()[0])
    table.now = 10.0
    _flush_except(table, silent=1)
    assert table.hands[0].phase is Phase.SHUFFLE
    err = _expire(table, 2, 10.0)
    assert (err.seat, err.check) == (1, "timeout") and "shuffle" in str(err)


def test_seat_withholding_its_talon_share_is_blamed() -> None:
    table = Table.build(make_config(3, 32, timeout=TIMEOUT))
    table.flush()
    top = table.config.schedule.index(None)
    table.now = 100.0
    for s in (0, 1):
        table.hands[s].reveal(top, table.now)
    table.flush()
    assert table.hands[0].timer() == 100.0 + TIMEOUT
    err = _expire(table, 0, 100.0)
    assert (err.seat, err.check) == (2, "timeout")


def test_seat_that_never_opens_is_blamed() -> None:
    table = Table.build(make_config(3, 32, timeout=TIMEOUT))
    table.flush()
    assert table.hands[0].timer() is None  # playing: the session times turns, not the protocol
    table.now = 50.0
    for s in (0, 1):
        table.hands[s].finish(table.now)
    table.flush()
    err = _expire(table, 1, 50.0)
    assert (err.seat, err.check) == (2, "timeout")


def test_partial_reveal_by_another_seat_puts_nobody_on_the_clock() -> None:
    """Seat 1 alone starts revealing a talon card the session never asked for."""
    table = Table.build(make_config(3, 32, timeout=TIMEOUT))
    table.flush()
    talon = [j for j, s in enumerate(table.config.schedule) if s is None]
    table.hands[1].reveal(talon[-1], 0.0)
    table.flush()
    assert table.hands[0].timer() is None and table.hands[2].timer() is None
    table.hands[0].handle_timer(1e9)
    assert table.hands[0].phase is Phase.PLAY
