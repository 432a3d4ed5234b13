"""``lodam bot NAME --table oak --broker URL`` (and ``lodam join oak --bot NAME --broker
URL``) before table oak is announced there: one "waiting for table oak on URL…" line on
stderr, another only when the reason changes, up to ``--wait`` seconds; then exit 1
with one line naming the table and the broker and the command that lists what it
announces. A table there at once costs no line and no wait, and ``--json`` keeps its
one line.

The looks at the broker are stood in for, the pauses between them take no time, and the
clock is the one the pauses move: nothing waits on the wall clock. The match itself is
stood in for too: it returns a result as soon as the seat would join.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.cli import cmd_join, finding, main
from lodam_p2p.cli.finding import NOT_ANNOUNCED, BrokerWait
from lodam_p2p.cli.netrun import result_json
from lodam_p2p.session.journal import Journal, SeatJournal
from lodam_p2p.tableplan import MatchOutcome

BROKER = "mqtt://127.0.0.1:1"  # never reached: its looks are stood in for
REFUSED = f"cannot connect to {BROKER}: Connection refused"
WAITING = f"lodam: waiting for table oak on {BROKER}…"
OUTCOME = MatchOutcome(table="oak", winners=(2,), deals=3, audits_passed=3, lives=(0, 0, 2),
                       standings=(2, 0, 1))
SEATS = {"bot": ["bot", "random", "--table", "oak"], "join": ["join", "oak", "--bot", "random"]}


class Table:
    """The broker looked at again and again, and the match: each look answers the next
    of ``answers`` (a game, or why not), the last one for ever; the pauses move a clock;
    the match notes where it was joined and ends at once with :data:`OUTCOME`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
        self.home, self.now = home, 0.0
        self.answers: list[tuple[str | None, str]] = [(None, NOT_ANNOUNCED)]
        self.looked: list[tuple[str, str]] = []
        self.joined: list[tuple[str | None, str]] = []

        def waiting(label: str, broker: str, wait_s: float) -> BrokerWait:
            return BrokerWait(label, broker, wait_s, look=self.look, pause=self.pause,
                              clock=lambda: self.now)

        async def announced(broker: str, _name: object) -> str:
            return broker

        async def join_table(*, table: str | None, broker_url: str, **_: Any) -> MatchOutcome:
            self.joined.append((table, broker_url))
            return OUTCOME

        monkeypatch.setattr(finding, "BrokerWait", waiting)
        monkeypatch.setattr(cmd_join, "with_announced", announced)
        monkeypatch.setattr(cmd_join, "join_table", join_table)

    async def look(self, label: str, broker: str) -> tuple[str | None, str]:
        self.looked.append((label, broker))
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]

    async def pause(self, seconds: float) -> None:
        self.now += seconds

    def seat(self, kind: str, *more: str) -> int:
        """The bot's seat (``lodam bot`` or ``lodam join --bot``) at oak on the broker."""
        return main([*SEATS[kind], "--broker", BROKER, "--state-dir", str(self.home), *more])


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Table:
    return Table(monkeypatch, tmp_path / "state")


@pytest.mark.parametrize("kind", SEATS)
def test_a_bot_waits_for_its_table_saying_so_once_a_reason(
        table: Table, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    table.answers = [(None, REFUSED), (None, REFUSED), (None, NOT_ANNOUNCED),
                     (None, NOT_ANNOUNCED), ("lodam", "")]
    assert table.seat(kind, "--wait", "45", "--json") == 0
    out, err = capsys.readouterr()
    assert table.looked == [("oak", BROKER)] * 5
    assert table.joined == [("oak", BROKER)]
    # a broker not up yet is "not yet": one line, then one more when the reason changed
    first, second = err.splitlines()
    assert first.startswith(WAITING) and REFUSED in first and "up to 45 s" in first
    assert second.startswith(WAITING) and NOT_ANNOUNCED in second
    assert 0 < table.now < 45
    assert out.splitlines() == [json.dumps(result_json(OUTCOME))]  # the same JSON line


@pytest.mark.parametrize("kind", SEATS)
def test_a_table_announced_at_once_costs_no_line_and_no_wait(
        table: Table, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    table.answers = [("lodam", "")]
    assert table.seat(kind, "--json") == 0
    out, err = capsys.readouterr()
    assert (table.looked, table.joined, table.now) == ([("oak", BROKER)], [("oak", BROKER)], 0)
    assert err == "" and out.splitlines() == [json.dumps(result_json(OUTCOME))]


@pytest.mark.parametrize("kind", SEATS)
def test_the_wait_over_is_exit_1_and_one_line_naming_table_and_broker(
        table: Table, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    table.answers = [(None, REFUSED)]
    assert table.seat(kind, "--wait", "30", "--json") == 1
    out, err = capsys.readouterr()
    assert table.now >= 30 and len(table.looked) > 2 and table.joined == []
    waiting, gave_up = err.splitlines()  # never one line a look
    assert waiting.startswith(WAITING) and "up to 30 s, --wait to change" in waiting
    assert gave_up == (f"lodam: no table oak on {BROKER} in 30 s of waiting ({REFUSED}); "
                       f"the tables it announces: lodam tables --broker {BROKER} --no-lan")
    assert out == ""  # no JSON line for a match never played


def test_the_default_wait_is_the_flags(table: Table,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert table.seat("bot") == 1
    assert table.now >= finding.DEFAULT_WAIT_S and table.joined == []
    err = capsys.readouterr().err
    assert f"up to {finding.DEFAULT_WAIT_S:g} s" in err
    assert f"in {finding.DEFAULT_WAIT_S:g} s of waiting;" in err


def test_wait_0_looks_once_and_says_only_the_last_line(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    assert table.seat("bot", "--wait", "0") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"lodam: no table oak on {BROKER} in 0 s") and err.count("\n") == 1
    assert len(table.looked) == 1


def test_a_pinned_table_is_waited_for_by_its_label(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    table.answers = [(None, NOT_ANNOUNCED), ("lodam", "")]
    assert main(["bot", "random", "--table", "oak#7f3a", "--broker", BROKER,
                 "--state-dir", str(table.home)]) == 0
    assert table.looked == [("oak#7f3a", BROKER)] * 2
    assert table.joined == [("oak#7f3a", BROKER)]
    assert capsys.readouterr().err.startswith(f"lodam: waiting for table oak#7f3a on {BROKER}…")


def test_a_seat_coming_back_to_its_match_does_not_wait(
        table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    journal = Journal.open(table.home)
    SeatJournal(journal, "seat", "oak").keep(start=["00", {"game": "lodam"}, []])
    journal.close()
    assert table.seat("bot", "--json") == 0
    assert table.looked == [] and table.joined == [("oak", BROKER)]
    assert capsys.readouterr().err == ""


def test_a_bot_for_the_first_open_table_does_not_wait_by_name(table: Table) -> None:
    assert main(["bot", "random", "--broker", BROKER, "--state-dir", str(table.home)]) == 0
    assert table.looked == [] and table.joined == [(None, BROKER)]
