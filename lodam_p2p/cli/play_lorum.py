"""``lodam play --game lorum --offline``: you and two or three bots at a Lorum table.

The match runs in this process with the Lorum engine
(:mod:`lodam_p2p.ui.lorum_client`); ``--option`` takes every option of LORUM.md section
9. The bots are ``random`` unless ``--bots`` names others that play Lorum; the hint
(``h``) asks a bot made for Lorum when one is installed, else the ``random`` bot.
A networked Lorum table is not there yet: without ``--offline`` this says so.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import itertools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.cmd_play import BOT_NAMES, DEFAULT_DELAY, bot_lineup, setup_logging

if TYPE_CHECKING:
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.games.lorum import Match, Options

GAME = "lorum"
DEFAULT_SEATS = 4
DEFAULT_BOT = "random"


def play_lorum(args: argparse.Namespace) -> int:
    """Play Lorum offline; exit status 0 when the person left."""
    given = getattr(args, "given", None) or set()
    if not args.offline:
        raise CliError("Lorum at a networked table is not yet available; use --offline")
    if args.bots_only or args.lobby:
        raise CliError("Lorum is played with a person at the table for now: drop "
                       f"{'--bots-only' if args.bots_only else '--lobby'}")
    seats = args.seats if "seats" in given else DEFAULT_SEATS
    if not 3 <= seats <= 4:
        raise CliError(f"Lorum is for 3 or 4 seats (LORUM.md section 2), got {seats}")
    options = lorum_options(args.option)
    registry = _registry()
    lineup = bot_lineup(args.bots if "bots" in given else DEFAULT_BOT, seats - 1, registry)
    for name in lineup:
        if not registry.get(name).plays(GAME):
            raise CliError(f"bot {name!r} does not play Lorum (try --bots random)")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("lodam play needs a terminal")
    log_path = setup_logging(args.log_file)
    matches = _run(args, options, lineup, registry)
    if args.json:
        for match in matches:
            print(json.dumps(summary(match)))
    else:
        done = len(matches)
        print(f"lodam: {done} match{'es' if done != 1 else ''} finished; log in {log_path}")
    return 0


def lorum_options(items: list[str]) -> Options:
    """The Lorum options of ``--option K=V`` items."""
    from lodam_p2p.games.lorum import Options, RulesError  # noqa: PLC0415

    try:
        return Options.parse_assignments(items)
    except (RulesError, ValueError) as err:
        raise CliError(f"bad --option: {err}") from None


def _registry() -> BotRegistry:
    from lodam_p2p.bots import BotError, BotRegistry  # noqa: PLC0415

    try:
        return BotRegistry.load()
    except BotError as err:
        raise CliError(str(err)) from None


def _run(args: argparse.Namespace, options: Options, lineup: list[str],
         registry: BotRegistry) -> list[Match]:
    from lodam_p2p.cli.profile import player_name  # noqa: PLC0415
    from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
    from lodam_p2p.ui.lorum_client import LorumSettings, bot_makers, run_lorum  # noqa: PLC0415

    names = (player_name(args.name),
             *(BOT_NAMES[i % len(BOT_NAMES)] for i in range(len(lineup))))
    settings = LorumSettings(
        options=options, names=names, bots=bot_makers([registry.get(n) for n in lineup]),
        seed=args.seed, delay=DEFAULT_DELAY if args.bot_delay is None else args.bot_delay,
        ascii=args.ascii, no_color=no_color_wanted(), hint=hint_bot(registry))
    return asyncio.run(run_lorum(settings))


def hint_bot(registry: BotRegistry) -> Callable[[Any], Any] | None:
    """What ``h`` suggests: the Lorum heuristic when it is installed, else a bot made
    for Lorum, else ``random``."""
    seeds = itertools.count()
    heuristic = _lorum_heuristic()
    if heuristic is not None:
        return lambda view: heuristic(seat=view.seat, seed=next(seeds),
                                      options={}).decide(view)
    made_for = [r.type for r in registry if GAME in r.type.games]
    bot_type = made_for[0] if made_for else (
        registry.get(DEFAULT_BOT) if DEFAULT_BOT in registry else None)
    if bot_type is None:
        return None
    return lambda view: bot_type.make(view.seat, next(seeds)).decide(view)


def _lorum_heuristic() -> Any:
    """The Lorum heuristic's class, if it is installed (as ``lodam_plugins``, or the
    folder ``plugins`` of a source checkout), else ``None``."""
    for package in ("lodam_plugins", "plugins"):
        try:
            module = importlib.import_module(f"{package}.lorum_heuristic")
        except ImportError:
            continue
        found = getattr(module, "LorumHeuristicBot", None)
        if found is not None:
            return found
    return None


def summary(match: Match) -> dict[str, object]:
    """The one-line ``--json`` summary, in the shape of Lodam's (offline: no audit to
    fail), plus the game; ``standings``: the seats, best first."""
    from lodam_p2p.ui.lorum_model import ScoreSheet  # noqa: PLC0415
    from lodam_p2p.ui.lorum_panels import standings  # noqa: PLC0415

    return {"table": "local", "game": GAME, "winners": list(match.winners),
            "deals": match.deals_played, "audits_passed": match.deals_played,
            "blames": [], "standings": standings(ScoreSheet.from_match(match))}
