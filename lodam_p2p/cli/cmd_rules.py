"""``lodam rules …``: the rules engine from the command line.

``lodam rules replay FILE...`` replays scripted deals (the replay format of
``lodam_p2p.rules.replay``) and prints one JSON line per scenario, in input order.
``lodam rules show-options`` lists the table options with their defaults.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lodam_p2p.cli import CliError
from lodam_p2p.games import lorum
from lodam_p2p.games.lorum.replay import replay_scenario as replay_lorum
from lodam_p2p.rules import Options
from lodam_p2p.rules.options import ExchangeRule, RankOrder
from lodam_p2p.rules.replay import replay_scenario

_OPTION_HELP = {
    "rank_order": f"order within a suit: {', '.join(o.value for o in RankOrder)}",
    "lives": "counters per player at the start (1 … 9); Winning Lodam: counters to win",
    "out_at": "points that put a player out (1 … 108)",
    "exchanges": f"when exchange windows open: {', '.join(e.value for e in ExchangeRule)}",
    "short_deck_at": "switch to the 32-card pack at this many players (0 off, 2 … 4)",
    "hand_size": "cards per hand (null: the table of RULES.md 4)",
    "declare_out": "players must declare out, and may challenge",
    "trump_memory": "the trump is shown only briefly; swallow asked after every renounce",
    "trump_show_seconds": "how long the turned trump card is shown (> 0)",
    "stake": "chips each player pays into the pot (≥ 0)",
    "winning": "Winning Lodam: gain counters instead of losing them",
}

_LORUM_HELP = {
    "rounds": "rounds in a match (≥ 1); a round plays every contract once per dealer",
    "contracts": "contracts to play, kept in round order (k=v: a comma list)",
    "scoring": "points (lowest total wins) or beans (pot and pfennigs)",
    "first_last_points": "points of the first and of the last trick (4 or 5)",
    "first_last_short": "first_last with two cards each; the stack passes on unshuffled",
    "fifth_trick": "the scoring trick of fifth: 5 (8 points) or 6 (5 points)",
    "red_king_blind": "red_king played blind: each plays their next card unseen",
    "lorum_start": "rows start with any rank (wrapping A to 7) or with an Unter",
    "lorum_play_on": "the Lorum deal goes on after the first player is out",
    "breach_points": "penalty for a proven breach (≥ 0)",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam rules`` with its ``replay`` and ``show-options`` subcommands."""
    parser = sub.add_parser(
        "rules",
        help="the rules engine: replay scripted deals, options",
        description="The rules engine from the command line: replay scripted deals (one "
        "JSON result line per scenario) or list the table options.",
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
    show.add_argument("--game", choices=("lodam", "lorum"), default="lodam",
                      help="whose options (default lodam)")
    show.set_defaults(run=run_show_options)

    def show_help(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(run=show_help)


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
    """One scenario of either game, by its ``"game"`` field."""
    if isinstance(scenario, dict) and scenario.get("game") == "lorum":
        return replay_lorum(scenario)
    return replay_scenario(scenario)


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
    """Print the options of RULES.md section 12 (LORUM.md 9) with their defaults."""
    lorum_game = getattr(args, "game", "lodam") == "lorum"
    defaults = lorum.Options().to_mapping() if lorum_game else Options().to_mapping()
    helps = _LORUM_HELP if lorum_game else _OPTION_HELP
    if args.json:
        print(json.dumps(defaults))
        return 0
    width = max(len(name) for name in defaults)
    for name, value in defaults.items():
        shown = json.dumps(value)
        print(f"{name:<{width}}  {shown:<13}  {helps.get(name, '')}")
    return 0
