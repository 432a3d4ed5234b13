"""The same bot flags on every command that seats bots, and their errors up front."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

import pytest

from lodam_p2p.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def subcommand(name: str) -> argparse.ArgumentParser:
    from lodam_p2p.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: argparse.ArgumentParser = action.choices[name]
    return found


@pytest.mark.parametrize("command", ["play", "host", "join", "bot", "arena"])
def test_every_command_that_seats_bots_takes_the_bot_flags(command: str) -> None:
    flags = {flag for action in subcommand(command)._actions for flag in action.option_strings}
    assert {"--bot-option", "--plugin-dir"} <= flags
    if command != "arena":
        assert "--strict-bots" in flags


@pytest.fixture
def plugin_dir(tmp_path: Path) -> Path:
    (tmp_path / "broken.py").write_text(textwrap.dedent('''
        from lodam_p2p.bots import BotType, hookimpl

        class Boom:
            def __init__(self, *, seat, seed, options):
                raise RuntimeError("no brain today")

        @hookimpl
        def lodam_bot_types():
            return [BotType("boom", "raises when made", Boom, games=("*",))]
    '''))
    return tmp_path


BROKER = "mqtt://127.0.0.1:9"  # nothing listens: each error must come before a connection


@pytest.mark.parametrize(("argv", "needle"), [
    (["bot", "random", "--table", "t", "--broker", BROKER, "--bot-option", "heuristic.risk=1"],
     "has no seat here"),
    (["bot", "random", "--table", "t", "--broker", BROKER, "--bot-option", "random.nope=1"],
     "has no option 'nope'"),
    (["join", "t", "--bot", "random", "--broker", BROKER, "--bot-option", "risk=1"],
     "NAME.key=value"),
    (["host", "--table", "t", "--seats", "4", "--watch", "--bots", "random*3", "--broker", BROKER,
      "--bot-option", "heuristic.risk=1"], "has no seat here"),
    (["host", "--table", "t", "--seats", "4", "--watch", "--bots", "random*3", "--broker", BROKER,
      "--option", "random.x=1"], "--bot-option random.x=1"),
    (["play", "--bots-only", "--offline", "--seats", "3", "--bots", "random",
      "--option", "heuristic.risk=3"], "--bot-option heuristic.risk=3"),
    (["play", "--bots-only", "--offline", "--seats", "3", "--bots", "random",
      "--bot-option", "ismcts.c=3"], "has no seat here"),
])
def test_a_misdirected_bot_option_is_one_line_before_anything_starts(
        capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1, err
    assert needle in err


@pytest.mark.parametrize("argv", [
    ["bot", "boom", "--table", "t", "--broker", BROKER],
    ["play", "--bots-only", "--offline", "--seats", "3", "--bots", "boom"],
    ["host", "--table", "t", "--seats", "4", "--watch", "--bots", "boom,random*2",
     "--broker", BROKER],
])
def test_a_bot_that_cannot_start_is_one_line_exit_2(
        capsys: pytest.CaptureFixture[str], plugin_dir: Path, argv: list[str]) -> None:
    code, out, err = run(capsys, *argv, "--plugin-dir", str(plugin_dir))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "bot 'boom'" in err and str(plugin_dir / "broken.py") in err


def test_bots_only_names_each_seats_bot(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "play", "--bots-only", "--offline", "--seed", "2",
                          "--seats", "3", "--bots", "heuristic,random", "--option", "lives=1")
    assert code == 0
    assert out.splitlines()[0] == "Seats: Moll (heuristic), Ned (random), Bess (random)."
