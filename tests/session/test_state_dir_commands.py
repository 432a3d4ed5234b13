"""``--state-dir`` is honoured by every command that keeps state: the journal of ``lodam
play`` at a networked table (every seat here, hosted, joined), ``host``, ``join --bot``,
``bot`` and ``adversary`` is opened where it says, and an offline ``lodam play``, which
keeps no state, writes none. The table itself is stood in for: each command's match
stops at once with a one-line error once it has its journal.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p import session
from lodam_p2p.cli import cmd_adversary, cmd_host, cmd_join, finding, main
from lodam_p2p.cli.cmd_play import play_defaults
from lodam_p2p.cli.play_drivers import choose_driver
from lodam_p2p.session import SessionError
from lodam_p2p.session.journal import Journal

BROKER = "mqtt://127.0.0.1:1"  # never reached: the table is stood in for


class Taken:
    """A stand-in for the session's table functions: notes the journal, then stops."""

    def __init__(self) -> None:
        self.dirs: list[Path | None] = []

    async def __call__(self, **kwargs: Any) -> Any:
        journal: Journal | None = kwargs.get("journal")
        self.dirs.append(None if journal is None else journal.directory)
        raise SessionError("stood in for by the test")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of its own, so that a journal left in a default slot would be seen."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "home" / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / "config"))
    return tmp_path / "home"


def _run(argv: list[str], taken: Taken, state: Path) -> None:
    assert main([*argv, "--state-dir", str(state)]) != 0  # the stand-in stopped it
    assert taken.dirs == [state]


def test_play_at_a_networked_table(home: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken()
    monkeypatch.setattr(session, "play_table", taken)  # every seat is played here
    _run(["play", "--bots-only", "--seats", "3", "--table", "oak", "--broker", BROKER,
          "--log-file", str(tmp_path / "log")], taken, tmp_path / "mine")


def test_play_hosting_a_table(home: Path, tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    # the person's seat at a table hosted here (lodam host in a terminal, or the lobby)
    taken = Taken()
    monkeypatch.setattr(session, "host_table", taken)
    args = play_defaults()
    args.host, args.table, args.broker = True, "oak", BROKER
    args.state_dir = tmp_path / "mine"
    with pytest.raises(SessionError):
        asyncio.run(choose_driver(args)(None, [], None))  # type: ignore[arg-type]
    assert taken.dirs == [tmp_path / "mine"]


def test_host(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken()
    monkeypatch.setattr(cmd_host, "host_table", taken)
    _run(["host", "--table", "oak", "--seats", "3", "--bot", "random", "--broker", BROKER,
          "--watch"], taken, tmp_path / "mine")


@pytest.mark.parametrize("argv", [["join", "oak", "--bot", "random"],
                                  ["bot", "random", "--table", "oak"]], ids=["join", "bot"])
def test_join_and_bot(home: Path, tmp_path: Path, argv: list[str],
                      monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken()

    async def announced(broker: str, _name: object) -> str:
        return broker

    async def looked(_label: str, _broker: str) -> tuple[str | None, str]:
        return "lodam", ""  # the table is announced there: the seat does not wait for it

    monkeypatch.setattr(cmd_join, "join_table", taken)
    monkeypatch.setattr(cmd_join, "with_announced", announced)
    monkeypatch.setattr(finding, "look_announced", looked)
    _run([*argv, "--broker", BROKER], taken, tmp_path / "mine")


def test_adversary(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken()
    monkeypatch.setattr(cmd_adversary, "join_table", taken)
    kind = next(iter(cmd_adversary.ATTACKS))
    _run(["adversary", kind, "--table", "oak", "--broker", BROKER], taken, tmp_path / "mine")


def test_an_adversary_without_state_dir_keeps_no_journal(
        home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = Taken()
    monkeypatch.setattr(cmd_adversary, "join_table", taken)
    kind = next(iter(cmd_adversary.ATTACKS))
    assert main(["adversary", kind, "--table", "oak", "--broker", BROKER]) != 0
    assert taken.dirs == [None]


def test_offline_play_keeps_no_state_anywhere(home: Path, tmp_path: Path) -> None:
    state = tmp_path / "mine"
    assert main(["play", "--offline", "--bots-only", "--seats", "3", "--seed", "1",
                 "--json", "--log-file", str(tmp_path / "log"),
                 "--state-dir", str(state)]) == 0
    assert not state.exists()
    assert not (home / "state" / "lodam").exists()
