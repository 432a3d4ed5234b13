"""The host's seat list: names unique at the table, the count of seats, the renamed told."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Notice, SeatsChanged
from lodam_p2p.session.lobby import HostDesk, renamed_notice
from lodam_p2p.session.wire import Body
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport.memory import MemoryHub
from tests.session.helpers import Keeper, run_all, table
from tests.support.virtual import run_on_table_clock as run

HOST = "p" + "0" * 20


def _peer(n: int) -> str:
    return "p" + f"{n:020d}"


def test_a_taken_name_is_numbered_whatever_its_case() -> None:
    desk = HostDesk("oak", HOST, 4, Options())
    for n, name in enumerate(["Ann", "ann", "Ann", "Bo"], start=1):
        assert desk.join(_peer(n), b"", name, "human")
    assert [s.name for s in desk.order()] == ["Ann", "ann (2)", "Ann (3)", "Bo"]


def test_the_seat_list_carries_the_number_of_seats() -> None:
    desk = HostDesk("oak", HOST, 5, Options())
    desk.join(_peer(1), b"", "Ann", "human")
    body = Body.decode(desk.seats_body().encode())
    rows, wanted = body.args
    assert wanted == 5 and rows == [[_peer(1), "Ann", "human"]]


def test_the_renamed_are_told_their_name_here() -> None:
    assert renamed_notice("Ann", "Ann") is None
    notice = renamed_notice("Ann", "Ann (2)")
    assert notice is not None and "here you are Ann (2)" in notice.text


def test_two_players_of_one_name_play_under_two_names() -> None:
    keepers = [Keeper() for _ in range(3)]
    seats = [SeatPlan("Ann", k, "human") for k in keepers[:2]]
    seats.append(SeatPlan("Moll", keepers[2], "bot:first"))
    outcomes = run(run_all(table(MemoryHub(), seats, Options(lives=1))), 120)
    assert outcomes[0].winners and outcomes[0].blames == ()
    lobby = [e for e in keepers[0].events if isinstance(e, SeatsChanged) and e.wanted]
    assert lobby and all(e.wanted == 3 for e in lobby)
    final = [e for e in keepers[0].events if isinstance(e, SeatsChanged)][-1]
    assert sorted(s.name for s in final.seats) == ["Ann", "Ann (2)", "Moll"]
    told = [e.text for k in keepers[:2] for e in k.events if isinstance(e, Notice)
            and "already called Ann" in e.text]
    assert told == ["Someone at this table is already called Ann: here you are Ann (2)."]
