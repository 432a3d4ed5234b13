"""A seat joining a table: seated only when the host's list says so, asking until then.

Machines on a fake clock (:mod:`tests.session.machines`): the host's watcher keeps the
desk, two seats are the host's own (reserved), and a guest joins. A JOIN the host never
heard is asked again; a table full to guests says so; an announcement that names
another host (another table of that name) is told of and not followed; and every
screen that shows a seat list shows the host's.
"""

from __future__ import annotations

import pytest

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Notice, Progress, SeatsChanged
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.lobby import HostDesk
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.seating import ASK_AGAIN_S
from lodam_p2p.session.wire import Msg
from lodam_p2p.tableplan import SeatPlan
from tests.session import helpers
from tests.session.machines import TABLE, Router, machines

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)


class Keeper(helpers.Keeper):
    """Plays the first legal action; keeps what it is told, and reads it back."""

    def lines(self) -> list[str]:
        return [e.detail for e in self.events if isinstance(e, Progress)]

    def lists(self) -> list[SeatsChanged]:
        return [e for e in self.events if isinstance(e, SeatsChanged)]


def _table(guests: int = 1, seats: int = 3) -> tuple[list[TableMachine], list[Keeper]]:
    """The watcher, the host's own two seats, then ``guests`` joining seats."""
    keepers = [Keeper() for _ in range(2 + guests)]
    plans = [SeatPlan(f"P{i}", k, "human") for i, k in enumerate(keepers)]
    table = machines(plans, Options(lives=1), timing=TIMING)
    watcher = table[0]
    watcher.desk = HostDesk(TABLE, watcher.me, seats, Options(lives=1),
                            (table[1].me, table[2].me), limit_s=TIMING.timeout_s)
    return table, keepers


def test_a_join_the_host_never_heard_is_asked_again_and_then_seated() -> None:
    table, keepers = _table()
    guest = table[3]
    router = Router(table)
    router.start()
    guest.outgoing.clear()  # the first JOIN is lost on its way
    router.settle()
    assert guest.roster is None and guest.phase is SessionPhase.LOBBY
    assert keepers[2].lists() == []  # not seated, so no seat list of its own to show
    assert keepers[2].lines()[-1] == f"asking the host of table {TABLE} for a seat"
    due = guest.timer()
    assert due == router.now + ASK_AGAIN_S
    router.now = due
    router.until("the guest seated", lambda: guest.roster is not None)
    assert [b.kind for b in router.sent[guest.me]][:1] == [Msg.JOIN]
    assert any(line.startswith("no answer from the host yet: asking") for line in
               keepers[2].lines())
    # the host's screen and the guest's show the same roster
    names = [s.name for s in keepers[2].lists()[-1].seats]
    assert names == [s.name for s in keepers[0].lists()[-1].seats] == ["P0", "P1", "P2"]
    assert keepers[2].lists()[-1].me == 2


def test_a_seated_guest_asks_no_more() -> None:
    table, _keepers = _table()
    guest = table[3]
    router = Router(table)
    router.start()
    router.settle()
    assert guest.roster is not None and guest.seating.asking_due() is None
    assert [b.kind for b in router.sent[guest.me]].count(Msg.JOIN) == 1


def test_a_table_that_starts_without_a_guest_says_it_is_full() -> None:
    table, keepers = _table(guests=2)
    first, second = table[3], table[4]
    router = Router(table)
    router.start()
    second.outgoing.clear()  # its JOIN comes after the first guest's
    with pytest.raises(SessionError, match=f"table {TABLE} is full"):
        router.settle()
    assert first.roster is not None and second.roster is None
    assert keepers[3].lists() == []  # never shown a seat list the host did not give it


def test_the_announcement_says_full_when_no_seat_is_left_to_guests() -> None:
    desk = HostDesk(TABLE, "p" + "0" * 20, 3, Options(), ("p" + "1" * 20, "p" + "2" * 20))
    assert desk.announcement().state == "open"
    desk.join("p" + "3" * 20, b"", "Bo", "human")
    assert not desk.full and desk.announcement().state == "full"
    assert not desk.join("p" + "4" * 20, b"", "Cy", "human")


def test_another_table_of_that_name_is_told_of_and_not_followed() -> None:
    table, keepers = _table()
    guest = table[3]
    router = Router(table)
    old_host = "p" + "9" * 20
    guest.host = old_host  # it chose another announcer of the name first
    router.start()
    router.settle()
    assert guest.roster is None  # the other table's list is not its host's: dropped
    assert table[0].desk is not None
    guest.seating.lobby_seen(table[0].desk.announcement().signed(table[0].identity))
    router.settle()
    assert guest.host == old_host and guest.roster is None  # never a silent takeover
    notices = [e.text for e in keepers[2].events if isinstance(e, Notice)]
    assert any(text.startswith(f"Two tables are announced as {TABLE}") for text in notices)


def test_a_guest_without_an_answer_at_a_table_full_to_guests_says_it_is_full() -> None:
    table, keepers = _table(guests=2)
    watcher, late_own, first, second = table[0], table[2], table[3], table[4]
    router = Router([m for m in table if m is not late_own])  # not sat down yet
    router.start()
    second.outgoing.clear()  # and the second guest asks after the first
    router.settle()
    assert first.roster is None and watcher.desk is not None
    second.seating.lobby_seen(watcher.desk.announcement().signed(watcher.identity))  # as its link
    # delivers it
    assert keepers[3].lines()[-1] == f"asking the host of table {TABLE} for a seat"
    router.now += ASK_AGAIN_S
    router.settle()
    assert keepers[3].lines()[-1].startswith("the table is full, waiting for a seat to free")
    assert keepers[3].lists() == [] and second.roster is None
