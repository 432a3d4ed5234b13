"""`lodam join` and `lodam host` seat a person in the terminal client."""

from __future__ import annotations

import argparse

import pytest

from lodam_p2p.cli import cmd_host, cmd_join, cmd_play, main


def test_join_without_a_terminal_says_the_client_needs_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["join", "oak", "--broker", "mqtt://127.0.0.1:1"]) == 2
    assert "needs a terminal" in capsys.readouterr().err


def test_join_rejects_a_bad_table_name_before_anything_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["join", "o/ak"]) == 2
    assert "table" in capsys.readouterr().err


def test_join_hands_the_table_and_broker_to_the_client(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(cmd_play, "run", lambda args: seen.append(args) or 0)
    assert main(["join", "oak", "--broker", "mqtt://10.0.0.9:1884"]) == 0
    (args,) = seen
    assert (args.table, args.join_row.table, args.join_row.broker) == (
        "oak", "oak", "mqtt://10.0.0.9:1884")
    assert main(["join"]) == 0
    assert seen[1].lobby is True


def test_host_in_a_terminal_seats_the_person_beside_the_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[argparse.Namespace] = []
    monkeypatch.setattr(cmd_play, "run", lambda args: seen.append(args) or 0)
    monkeypatch.setattr(cmd_host.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(cmd_host.sys.stdout, "isatty", lambda: True, raising=False)
    assert main(["host", "--table", "oak", "--seats", "4", "--bot", "random",
                 "--option", "lives=1", "--listen", "127.0.0.1:1999"]) == 0
    (args,) = seen
    assert (args.host, args.table, args.seats, args.bots) == (True, "oak", 4, "random")
    assert args.chosen_options.lives == 1 and args.listen == "127.0.0.1:1999"


def test_host_with_no_room_for_the_person_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(cmd_host.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(cmd_host.sys.stdout, "isatty", lambda: True, raising=False)
    assert main(["host", "--table", "oak", "--seats", "3", "--bot", "random",
                 "--bot", "random", "--bot", "random"]) == 2
    assert "do not fit" in capsys.readouterr().err


def test_play_defaults_are_those_of_a_bare_lodam_play() -> None:
    args = cmd_play.play_defaults()
    assert (args.seats, args.bots, args.offline, args.lobby) == (5, "heuristic", False, False)
    assert cmd_join.DEFAULT_BROKER.startswith("mqtt://")
