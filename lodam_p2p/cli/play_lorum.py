"""``lodam play --game lorum``: you and two or three bots at a Lorum table.

The person sits at the Lorum screen (:mod:`lodam_p2p.ui.lorum_client`), a
:class:`~lodam_p2p.player.Player` that any table driver can seat. ``--offline`` plays in
this process through the game interface (:func:`lodam_p2p.local.play_local`, the same
driver as Lodam's); ``--option`` takes every option of LORUM.md section 9. The bots are
``heuristic`` when that bot plays Lorum, else ``random``, unless ``--bots`` names others
that play Lorum; the hint (``h``) asks a bot made for Lorum when one is installed, else
the ``random`` bot.

Without ``--offline`` the table is the network session on an embedded broker, dealt by
the fair-deal protocol (the same driver as Lodam's, :func:`lorum_driver`).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import itertools
import json
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.cmd_play import (
    DEFAULT_DELAY,
    bot_lineup,
    bot_seats,
    choose_driver,
    setup_logging,
)

if TYPE_CHECKING:
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.games.lorum import Options
    from lodam_p2p.tableplan import MatchOutcome, SeatPlan
    from lodam_p2p.ui.lorum_player import LorumPlayer

GAME = "lorum"
DEFAULT_SEATS = 4
#: The bot of the other seats when ``heuristic`` does not play Lorum.
FALLBACK_BOT = "random"
#: Runs one match: (options, seats, seed) → outcome.
Driver = Callable[[Any, Sequence["SeatPlan"], "int | None"], Coroutine[Any, Any, "MatchOutcome"]]


def play_lorum(args: argparse.Namespace) -> int:
    """Play Lorum; exit status 0 when the person left."""
    given = getattr(args, "given", None) or set()
    if args.bots_only or args.lobby:
        raise CliError("Lorum is played with a person at the table for now: drop "
                       f"{'--bots-only' if args.bots_only else '--lobby'}")
    seats = args.seats if "seats" in given else DEFAULT_SEATS
    if not 3 <= seats <= 4:
        raise CliError(f"Lorum is for 3 or 4 seats (LORUM.md section 2), got {seats}")
    options = lorum_options(args.option)
    registry = _registry()
    lineup = bot_lineup(args.bots if "bots" in given else default_bot(registry), seats - 1,
                        registry)
    for name in lineup:
        if not registry.get(name).plays(GAME):
            raise CliError(f"bot {name!r} does not play Lorum (try --bots random)")
    driver = lorum_driver(args)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("lodam play needs a terminal")
    log_path = setup_logging(args.log_file)
    outcomes = _run(args, options, lineup, registry, driver)
    _report(outcomes, args.json, log_path)
    return 0


def default_bot(registry: BotRegistry) -> str:
    """``heuristic`` when it plays Lorum, else ``random``."""
    if "heuristic" in registry and registry.get("heuristic").plays(GAME):
        return "heuristic"
    return FALLBACK_BOT


def lorum_driver(args: argparse.Namespace) -> Driver:
    """The table that plays the match: the local table with ``--offline``, else the
    network session, handed Lorum ``Options`` and Lorum players."""
    if args.offline:
        from lodam_p2p.local import play_local  # noqa: PLC0415

        async def local(options: Any, seats: Sequence[SeatPlan], seed: int | None
                        ) -> MatchOutcome:
            return await play_local(options=options, seats=seats, seed=seed, game=GAME)

        return local
    return choose_driver(args)


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
         registry: BotRegistry, driver: Driver) -> list[MatchOutcome]:
    from lodam_p2p.cli.cmd_play import _timeout  # noqa: PLC0415
    from lodam_p2p.cli.profile import player_name  # noqa: PLC0415
    from lodam_p2p.tableplan import SeatPlan  # noqa: PLC0415
    from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
    from lodam_p2p.ui.lorum_client import LorumSettings, run_lorum  # noqa: PLC0415
    from lodam_p2p.ui.pacing import hold_limit, paced_by  # noqa: PLC0415

    name = player_name(args.name)
    delay = DEFAULT_DELAY if args.bot_delay is None else args.bot_delay
    limit = hold_limit(None if args.offline else _timeout(args))
    matches = itertools.count()

    async def start_match(person: LorumPlayer) -> MatchOutcome:
        k = next(matches)
        seed = None if args.seed is None else args.seed + k
        bots = bot_seats(lineup, registry, first_seat=1, seed=seed,
                         wrap=paced_by(person.hold, delay, limit))
        return await driver(options, [SeatPlan(name, person), *bots], seed)

    settings = LorumSettings(
        table="offline" if args.offline else args.table, ascii=args.ascii,
        no_color=no_color_wanted(), hint=hint_bot(registry), hold_limit=limit)
    return asyncio.run(run_lorum(start_match, settings))


def summary(outcome: MatchOutcome) -> dict[str, object]:
    """The one-line ``--json`` summary: Lodam's, with the game and the standings (the
    seats, best first)."""
    line = outcome.to_json()
    return {"table": line["table"], "game": outcome.game, "winners": line["winners"],
            "deals": line["deals"], "audits_passed": line["audits_passed"],
            "blames": line["blames"], "standings": list(outcome.standings)}


def _report(outcomes: list[MatchOutcome], as_json: bool, log_path: Path) -> None:
    if as_json:
        for outcome in outcomes:
            print(json.dumps(summary(outcome)))
        return
    done = len(outcomes)
    print(f"lodam: {done} match{'es' if done != 1 else ''} finished; log in {log_path}")


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
        registry.get(FALLBACK_BOT) if FALLBACK_BOT in registry else None)
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
