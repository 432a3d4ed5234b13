"""Seating a person at a Lorum table through ``lodam host``, ``lodam join`` and the lobby,
and a table of Lorum bots told as plain text: the command line's choices, before any
screen opens (the screens themselves are played in the tmux tests)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from lodam_p2p.cli import cmd_host, cmd_join, cmd_play, main, netrun, play_lorum, play_seats
from lodam_p2p.session.journal import Journal
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lobby import LobbyModel, LobbyRow, render_lobby


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """stdin and stdout are a terminal."""
    for module in (cmd_host, play_seats):
        monkeypatch.setattr(module.sys.stdin, "isatty", lambda: True, raising=False)
        monkeypatch.setattr(module.sys.stdout, "isatty", lambda: True, raising=False)


@pytest.fixture
def seated(monkeypatch: pytest.MonkeyPatch) -> list[tuple[argparse.Namespace, list[str]]]:
    """What reaches the Lorum screen's run loop: the arguments and the bots' lineup."""
    seen: list[tuple[argparse.Namespace, list[str]]] = []

    def run(args, options, lineup, registry, **_):  # type: ignore[no-untyped-def]
        seen.append((args, lineup))
        return 0

    monkeypatch.setattr(play_lorum, "sit_down", run)
    return seen


@pytest.mark.usefixtures("terminal")
def test_a_lorum_host_sits_at_the_lorum_screen_beside_exactly_its_bots(
    seated: list[tuple[argparse.Namespace, list[str]]], tmp_path: Path,
) -> None:
    assert main(["host", "--game", "lorum", "--table", "oak", "--seats", "3", "--bot",
                 "random", "--option", "contracts=quartet,lorum",
                 "--state-dir", str(tmp_path)]) == 0
    ((args, lineup),) = seated
    assert (args.host, args.game, args.table, args.seats) == (True, "lorum", "oak", 3)
    assert lineup == ["random"]
    assert [c.value for c in args.chosen_options.contracts] == ["quartet", "lorum"]


@pytest.mark.usefixtures("terminal")
@pytest.mark.parametrize("extra,said", [
    (["--seats", "5"], "between 3 and 4 for Lorum"),
    (["--seats", "4", "--option", "lives=2"], "bad --option"),
])
def test_a_lorum_host_is_refused_in_one_line(
    extra: list[str], said: str, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["host", "--game", "lorum", "--table", "oak", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err


@pytest.mark.usefixtures("terminal")
def test_joining_a_table_sits_at_the_screen_of_the_game_it_announces(
    seated: list[tuple[argparse.Namespace, list[str]]], monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[tuple[str, str | None]] = []

    def found(args: argparse.Namespace, table: str, wait_s: float,
              broker: str | None) -> tuple[str, str]:
        asked.append((table, broker))
        return "mqtt://10.0.0.9:1884", "lorum"

    monkeypatch.setattr(cmd_join, "find_on_screen", found)  # the waiting screen's answer
    assert main(["join", "oak", "--broker", "mqtt://10.0.0.9:1884"]) == 0
    ((args, lineup),) = seated
    assert asked == [("oak", "mqtt://10.0.0.9:1884")]
    assert args.game == "lorum" and args.join_row.table == "oak" and lineup == []


@pytest.mark.usefixtures("terminal")
def test_a_lobby_row_that_names_its_game_needs_no_second_look(
    seated: list[tuple[argparse.Namespace, list[str]]], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(netrun, "joined_game", lambda *a: pytest.fail("looked again"))
    args = cmd_play.play_defaults()
    args.join_row = LobbyRow("oak", "mqtt://10.0.0.9:1884", 2, 4, "open", "ann", "broker",
                             game="lorum")
    assert cmd_play.run(args) == 0
    assert seated[0][0].game == "lorum"


def test_a_seat_coming_back_plays_the_game_its_journal_kept(tmp_path: Path) -> None:
    journal = Journal.open(tmp_path)
    journal.entry("seat").update(table="oak", start=["00", {"game": "lorum"}, [], 30.0])
    journal.save()
    journal.close()
    args = argparse.Namespace(state_dir=tmp_path)
    # the journal answers: the broker (nothing listens there) is never asked
    assert netrun.joined_game(args, "oak", "mqtt://127.0.0.1:1") == "lorum"


def test_the_lobby_creates_a_table_of_its_game() -> None:
    model = LobbyModel(game="lorum")
    assert model.form["seats"] == "4"
    model.form["options"] = "contracts=quartet,lorum"
    choice = model.form_choice()
    assert (choice.game, choice.seats) == ("lorum", 4)
    assert [c.value for c in choice.options.contracts] == ["quartet", "lorum"]
    model.form["seats"] = "5"
    with pytest.raises(ValueError, match="Lorum seats 3 to 4"):
        model.form_choice()
    model.key("c")
    screen = render_lobby(model, 80, 24, Glyphs()).text()
    assert "a new table of Lorum" in screen and "Seats (3-4)" in screen and "contracts=" in screen


def test_the_lobby_lists_each_tables_game() -> None:
    rows = [LobbyRow("oak", "mqtt://h:1883", 2, 4, "open", "ann", "broker", game="lorum"),
            LobbyRow("ash", "mqtt://h:1883", found="lan")]
    screen = render_lobby(LobbyModel(rows=rows), 80, 24, Glyphs()).text()
    assert "GAME" in screen and "lorum" in screen
    # the lobby lists every game's tables: its title names only what a new table plays
    assert "Losing Lodam" not in screen.splitlines()[0].replace("plays Losing Lodam", "")


def test_a_table_of_lorum_bots_is_told_as_plain_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    assert main(["play", "--game", "lorum", "--offline", "--bots-only", "--seats", "3",
                 "--seed", "2", "--option", "contracts=lorum", "--json",
                 "--log-file", str(tmp_path / "log")]) == 0
    out, err = capsys.readouterr()
    line = json.loads(out)
    assert (line["game"], line["deals"], line["blames"]) == ("lorum", 3, [])
    assert list(line)[:2] == ["table", "game"] and sorted(line["standings"]) == [0, 1, 2]
    assert "Deal 1, Lorum" in err and "Totals:" in err and "Match over after 3 deals" in err
    assert "You" not in err and "you " not in err  # every seat in the third person


def test_lorum_bots_only_on_the_network_is_the_session(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    seen = []

    async def driver(options, seats, seed):  # type: ignore[no-untyped-def]
        seen.append((options, [s.kind for s in seats]))
        return SimpleNamespace(to_json=lambda: {}, game="lorum", standings=())

    monkeypatch.setattr(play_lorum, "lorum_driver", lambda args: driver)
    assert main(["play", "--game", "lorum", "--bots-only", "--log-file",
                 str(tmp_path / "log")]) == 0
    ((_options, kinds),) = seen
    assert len(kinds) == 4 and all(k.startswith("bot:") for k in kinds)


def test_leaving_a_hosted_lorum_table_says_the_bots_leave_too() -> None:
    from lodam_p2p.ui.lorum.model import LorumPanel, LorumTable
    from lodam_p2p.ui.lorum.view import render_lorum

    model = LorumTable(table="oak", hosted=("Moll",), panel=LorumPanel.QUIT)
    screen = render_lorum(model, 80, 24, 0.0).text()
    assert "Leave the table?" in screen and "Moll plays from here" in screen
    model.hosted = ()
    assert "plays from here" not in render_lorum(model, 80, 24, 0.0).text()
