"""``lodam rules …``: the rules engine from the command line.

``lodam rules replay FILE...`` replays scripted deals of any installed game, chosen by
each scenario's ``"game"`` (its game's replay format: ``lodam_p2p.games.lodam.replay`` for
Lodam, ``lodam_p2p.games.lorum.replay`` for Lorum), and prints one JSON line per
scenario, in input order. ``lodam rules show-options [--game NAME]`` lists a game's
table options with their defaults and help, as the game states them. ``lodam rules page
[--game NAME] [--contract C] [--option K=V]`` prints the rules page the table screen
shows on ``r``: the game in a paragraph, and what a deal (a Lorum contract) asks.
``lodam rules guide [--game NAME]`` prints the players' guide the page is the short form
of (docs/rules-lodam.md, docs/rules-lorum.md; a wheel carries them).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lodam_p2p.cli import CliError
from lodam_p2p.games import DEFAULT_GAME, GameError, game_names, get_game


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam rules`` with its ``replay`` and ``show-options`` subcommands."""
    parser = sub.add_parser(
        "rules",
        help="the rules: the guide, the page of the table, options, replays",
        description="The rules of both games: the players' guide (guide), the rules page "
        "the table shows on r (page), the table options (show-options), and scripted deals "
        "replayed by the rules engine, one JSON result line per scenario (replay).",
    )
    actions = parser.add_subparsers(dest="rules_command", metavar="ACTION")
    replay = actions.add_parser(
        "replay",
        help="replay scripted deals, one JSON result line per scenario",
        description="Replay scripted deals. Each FILE holds one JSON scenario object, or "
        "(*.jsonl) one object per line. Prints one JSON line per scenario in input order. "
        "Malformed input: a one-line message on stderr and exit status 2.",
    )
    replay.add_argument("files", nargs="+", metavar="FILE", help="scenario file (- for stdin)")
    replay.set_defaults(run=run_replay)
    show = actions.add_parser("show-options", help="list the table options and defaults")
    show.add_argument("--json", action="store_true", help="print the defaults as JSON")
    show.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                      help=f"whose options (default {DEFAULT_GAME})")
    show.set_defaults(run=run_show_options)
    page = actions.add_parser(
        "page", help="the rules page a newcomer reads in two minutes (key r at the table)")
    page.add_argument("--game", choices=("lodam", "lorum"), default=DEFAULT_GAME,
                      help=f"which game (default {DEFAULT_GAME})")
    page.add_argument("--contract", default=None, metavar="NAME",
                      help="Lorum: also what this contract asks (reds, obers, tricks, "
                           "first_last, fifth, red_king, quartet, lorum)")
    page.add_argument("--option", action="append", default=[], metavar="K=V",
                      help="a table option, as for lodam play (repeatable)")
    page.add_argument("--seats", type=int, default=None, metavar="N",
                      help="players at the table (Lorum: 3 or 4, default 4)")
    page.add_argument("--width", type=int, default=78, metavar="COLUMNS",
                      help="wrap the text at this width (default 78)")
    page.set_defaults(run=run_page)
    guide = actions.add_parser(
        "guide", help="the whole players' guide of a game: rules, examples, words, keys",
        description="Print the players' guide of a game (docs/rules-lodam.md or "
        "docs/rules-lorum.md): the rules with worked examples, every word on the screen "
        "and the keys.")
    guide.add_argument("--game", choices=("lodam", "lorum"), default=DEFAULT_GAME,
                       help=f"which game (default {DEFAULT_GAME})")
    guide.set_defaults(run=run_guide)

    def show_help(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(run=show_help)


def run_guide(args: argparse.Namespace) -> int:
    """Print the players' guide of ``--game``."""
    from lodam_p2p.guides import GAME_GUIDES, read_guide  # noqa: PLC0415

    try:
        sys.stdout.write(read_guide(GAME_GUIDES[args.game]))
    except OSError as err:
        raise CliError(f"cannot show the guide: {err}") from None
    return 0


def run_page(args: argparse.Namespace) -> int:
    """Print the rules page of ``--game``, wrapped at ``--width``."""
    from lodam_p2p.ui.rules_page import named_page, page_lines  # noqa: PLC0415

    if not 30 <= args.width <= 400:
        raise CliError(f"--width must be 30 to 400 columns, got {args.width}")
    game = get_game(args.game)
    try:
        options = game.parse_options(_page_options(args.game, args.option))
    except ValueError as err:
        raise CliError(f"bad --option: {err}") from None
    seats = 4 if args.seats is None else args.seats
    if args.game == "lorum" and seats not in game.seats:
        raise CliError(f"Lorum is for {game.seats} seats, got {seats}")
    try:
        page = named_page(args.game, options, args.contract, seats)
    except ValueError as err:
        raise CliError(str(err)) from None
    for _style, line in page_lines(page, args.width):
        print(line)
    return 0


def _page_options(game: str, items: list[str]) -> list[str]:
    """Lodam's table options without the session's own (``rejoin_grace``)."""
    if game != "lodam":
        return items
    from lodam_p2p.cli.netrun import session_options  # noqa: PLC0415

    return list(session_options(items)[0])


def run_replay(args: argparse.Namespace) -> int:
    """Replay every scenario of every file; print results only if all input is good."""
    lines = []
    for name in args.files:
        for where, scenario in _scenarios(name):
            try:
                result = _replay(scenario)
            except ValueError as err:
                raise CliError(f"{where}: {err}") from None
            lines.append(json.dumps(result))
    sys.stdout.write("".join(line + "\n" for line in lines))
    return 0


def _replay(scenario: Any) -> dict[str, Any]:
    """One scenario, replayed by the game its ``"game"`` names."""
    name = scenario.get("game") if isinstance(scenario, dict) else None
    if isinstance(name, str) and name in game_names():
        game = get_game(name)
    elif name is None:
        game = get_game(DEFAULT_GAME)  # whose format reports what is missing
    else:
        installed = ", ".join(game_names())
        raise GameError(f'"game" names no installed game: {name!r} (installed: {installed})')
    return game.replay_scenario(scenario)


def _scenarios(name: str) -> Iterator[tuple[str, Any]]:
    """(location, parsed object) for each scenario in file ``name``, lazily, so that
    the first problem in file order is the one reported. A file not named ``*.jsonl``
    holds one object, or (when that does not parse) one object per line."""
    text = _read(name)
    if not name.endswith(".jsonl"):
        try:
            yield name, json.loads(text)
            return
        except ValueError as err:
            if "Extra data" not in str(err):
                raise CliError(f"{name}: not JSON: {err}") from None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                scenario = json.loads(line)
            except ValueError as err:
                raise CliError(f"{name}:{number}: not JSON: {err}") from None
            yield f"{name}:{number}", scenario


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"cannot read {name}: {err}") from None


def run_show_options(args: argparse.Namespace) -> int:
    """Print a game's options (the rules' options sections: docs/rules-lodam.md "Table
    options", docs/rules-lorum.md) with their defaults and a line of help each."""
    try:
        rows = get_game(getattr(args, "game", DEFAULT_GAME)).option_rows()
    except GameError as err:
        raise CliError(str(err)) from None
    if args.json:
        print(json.dumps({row.name: row.default for row in rows}))
        return 0
    width = max(len(row.name) for row in rows)
    for row in rows:
        shown = json.dumps(row.default)
        print(f"{row.name:<{width}}  {shown:<13}  {row.help}")
    return 0
