"""``lodam bot NAME --table oak --broker URL`` (and ``lodam join oak --bot NAME``) at a
table announced but full or playing a match, and ``lodam bot NAME --broker URL`` with
no table name where no table is open: one line on stderr saying why the seat waits and
for how long, another only when the reason changes, up to ``--wait`` seconds; then
exit 1 with one line naming the table, the broker and the reason. A seat freed in time
is taken, and ``--json`` keeps its one line.

The seat runs through the real :func:`join_table` and :func:`find_announcement`; only
the lobby reads (each answers the next of a list of announcements), the transports (an
in-memory hub's), the pauses (they move a clock and take no time) and the match itself
(it ends as soon as the seat has joined) are stood in for. Nothing waits on the wall
clock.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.cli import cmd_join, finding, main
from lodam_p2p.cli.finding import BrokerWait
from lodam_p2p.cli.netrun import result_json
from lodam_p2p.session import table as table_module
from lodam_p2p.session.table import TABLE_PATIENCE_S, TableWaitOver, join_table
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport.lobby import TableAnnouncement
from lodam_p2p.transport.memory import MemoryHub
from tests.support.announcing import announced

BROKER = "mqtt://127.0.0.1:1"  # never reached: the lobby reads are stood in for
OUTCOME = MatchOutcome(table="oak", winners=(2,), deals=3, audits_passed=3, lives=(0, 0, 2),
                       standings=(2, 0, 1))
SEATS = {"bot": ["bot", "random", "--table", "oak"], "join": ["join", "oak", "--bot", "random"]}
FULL = announced("oak", 1, 3, seated=("a", "b", "c"), state="full")
PLAYING = announced("oak", 1, 3, state="playing")
OPEN = announced("oak", 1, 3, seated=("a", "b"))
ELM = announced("elm", 2, 3)
WAIT_TAIL = "--wait to change)"


class Lobby:
    """The broker's lobby read again and again (each read answers the next of
    ``reads``, the last one for ever), the pauses moving a clock, and the match:
    it notes the table the seat joined and ends at once with :data:`OUTCOME`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
        self.home, self.now = home, 0.0
        self.reads: list[list[TableAnnouncement]] = [[]]
        self.read = 0
        self.joined: list[str] = []
        hub = MemoryHub()

        async def read_lobby(_transport: object, **_: Any) -> list[TableAnnouncement]:
            self.read += 1
            return self.reads.pop(0) if len(self.reads) > 1 else self.reads[0]

        async def run_all(sessions: Sequence[Any]) -> list[MatchOutcome]:
            self.joined.extend(session.table for session in sessions)
            return [OUTCOME]

        def announced_at_once(label: str, broker: str, wait_s: float) -> BrokerWait:
            async def look(_label: str, _broker: str) -> tuple[str | None, str]:
                return "lodam", ""
            return BrokerWait(label, broker, wait_s, look=look, pause=self.pause,
                              clock=self.clock)

        async def with_announced(broker: str, _name: object) -> str:
            return broker

        real = table_module.find_announcement
        monkeypatch.setattr(table_module, "find_announcement",
                            functools.partial(real, pause=self.pause, clock=self.clock))
        monkeypatch.setattr(table_module, "read_lobby", read_lobby)
        monkeypatch.setattr(table_module, "mqtt_connector", lambda _url: hub.transport)
        monkeypatch.setattr(table_module, "_run_all", run_all)
        monkeypatch.setattr(finding, "BrokerWait", announced_at_once)
        monkeypatch.setattr(cmd_join, "with_announced", with_announced)

    def clock(self) -> float:
        return self.now

    async def pause(self, seconds: float) -> None:
        self.now += seconds

    def seat(self, *argv: str) -> int:
        return main([*argv, "--broker", BROKER, "--state-dir", str(self.home)])


@pytest.fixture
def lobby(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Lobby:
    return Lobby(monkeypatch, tmp_path / "state")


@pytest.mark.parametrize("kind", SEATS)
def test_a_full_table_is_waited_at_until_a_seat_is_freed(
        lobby: Lobby, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    lobby.reads = [[FULL], [FULL], [PLAYING], [PLAYING], [OPEN]]
    assert lobby.seat(*SEATS[kind], "--wait", "45", "--json") == 0
    out, err = capsys.readouterr()
    assert lobby.read == 5 and lobby.joined == ["oak"]
    # one line at first, one more when the reason changed: never one a read
    full, playing = err.splitlines()
    assert full == (f"lodam: table 'oak' is full: waiting for a seat… (on {BROKER}; "
                    f"up to 45 s, {WAIT_TAIL}")
    assert playing.startswith("lodam: table 'oak' is playing a match: waiting for a seat…")
    assert 0 < lobby.now < 45
    assert out.splitlines() == [json.dumps(result_json(OUTCOME))]  # the same JSON line


@pytest.mark.parametrize("kind", SEATS)
def test_a_table_full_past_the_wait_is_exit_1_and_one_line(
        lobby: Lobby, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    lobby.reads = [[FULL]]
    assert lobby.seat(*SEATS[kind], "--wait", "30", "--json") == 1
    out, err = capsys.readouterr()
    assert lobby.now >= 30 and lobby.read > 2 and lobby.joined == []
    waiting, gave_up = err.splitlines()
    assert waiting.startswith("lodam: table 'oak' is full: waiting for a seat…")
    assert gave_up == (f"lodam: table 'oak' is full on {BROKER} after 30 s of waiting; "
                       f"the tables it announces: lodam tables --broker {BROKER} --no-lan")
    assert out == ""  # no JSON line for a match never played


def test_without_a_table_name_no_open_table_is_said_then_the_wait_ends(
        lobby: Lobby, capsys: pytest.CaptureFixture[str]) -> None:
    lobby.reads = [[], [FULL]]  # nothing, then only a full table
    assert lobby.seat("bot", "random", "--wait", "20") == 1
    out, err = capsys.readouterr()
    assert lobby.now >= 20 and lobby.joined == []
    assert err.splitlines() == [
        f"lodam: no open table on {BROKER} yet: waiting for one to open… (up to 20 s, "
        f"{WAIT_TAIL}",
        f"lodam: no open table on {BROKER} after 20 s of waiting; the tables it announces: "
        f"lodam tables --broker {BROKER} --no-lan",
    ]
    assert out == ""


def test_without_a_table_name_the_first_table_to_open_is_joined(
        lobby: Lobby, capsys: pytest.CaptureFixture[str]) -> None:
    lobby.reads = [[FULL], [FULL, ELM]]
    assert lobby.seat("bot", "random", "--json") == 0
    out, err = capsys.readouterr()
    assert lobby.joined == ["elm"] and lobby.read == 2
    assert err.startswith(f"lodam: no open table on {BROKER} yet: waiting for one to open…")
    assert f"up to {finding.DEFAULT_WAIT_S:g} s" in err and err.count("\n") == 1
    assert len(out.splitlines()) == 1


def test_an_open_table_costs_no_line_and_no_wait(
        lobby: Lobby, capsys: pytest.CaptureFixture[str]) -> None:
    lobby.reads = [[OPEN]]
    assert lobby.seat("bot", "random", "--table", "oak") == 0
    assert (lobby.read, lobby.joined, lobby.now) == (1, ["oak"], 0)
    assert capsys.readouterr().err == ""


def test_wait_0_reads_once_and_says_only_the_last_line(
        lobby: Lobby, capsys: pytest.CaptureFixture[str]) -> None:
    lobby.reads = [[PLAYING]]
    assert lobby.seat("bot", "random", "--table", "oak", "--wait", "0") == 1
    err = capsys.readouterr().err
    assert err == (f"lodam: table 'oak' is playing a match on {BROKER} after 0 s of waiting; "
                   f"the tables it announces: lodam tables --broker {BROKER} --no-lan\n")
    assert lobby.read == 1


def test_other_callers_keep_the_bots_patience_and_say_nothing(
        lobby: Lobby, capsys: pytest.CaptureFixture[str]) -> None:
    """:func:`join_table` without ``patience_s`` or ``waiting``: a bot's seat waits
    :data:`TABLE_PATIENCE_S` seconds, telling only its player."""
    lobby.reads = [[FULL]]
    told: list[object] = []

    class Player:
        def notify(self, event: object) -> None:
            told.append(event)

    seat = SeatPlan("random", Player(), "bot:random")  # type: ignore[arg-type]
    with pytest.raises(TableWaitOver, match=r"^table 'oak' is full$"):
        asyncio.run(join_table(table="oak", seat=seat, broker_url=BROKER))
    assert lobby.now >= TABLE_PATIENCE_S and lobby.joined == []
    assert len(told) == 1 and "is full: looking again" in str(told[0])
    assert capsys.readouterr().err == ""


def test_a_table_found_by_name_names_the_broker_that_answered(
        lobby: Lobby, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    found = "mqtt://10.0.0.5:1883,mqtt://10.0.0.6:1883"  # the advert's, the first answering
    monkeypatch.setattr(cmd_join, "find_broker", lambda *_args, **_kw: found)
    lobby.reads = [[PLAYING]]
    assert main(["bot", "random", "--table", "oak", "--wait", "10",
                 "--state-dir", str(lobby.home)]) == 1
    waiting, gave_up = capsys.readouterr().err.splitlines()
    assert waiting.startswith("lodam: table 'oak' is playing a match: waiting for a seat… "
                              "(on mqtt://10.0.0.5:1883; up to 10 s")
    assert gave_up.startswith("lodam: table 'oak' is playing a match on "
                              "mqtt://10.0.0.5:1883 after 10 s of waiting;")
