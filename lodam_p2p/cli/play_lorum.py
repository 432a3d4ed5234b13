"""``lodam play --game lorum``: you and two or three bots at a Lorum table.

The person sits at the Lorum screen (:mod:`lodam_p2p.ui.lorum.client`), a
:class:`~lodam_p2p.player.Player` that any table driver can seat. ``--offline`` plays in
this process through the game interface (:func:`lodam_p2p.local.play_local`, the same
driver as Lodam's); ``--option`` takes every option of docs/rules-lorum.md. The bots are
``heuristic`` when that bot plays Lorum, else ``random``, unless ``--bots`` names others
that play Lorum; the hint (``h``) asks a bot made for Lorum when one is installed, else
the ``random`` bot.

Without ``--offline`` the table is the network session on an embedded broker, dealt by
the fair-deal protocol (the same driver as Lodam's, :func:`lorum_driver`). The same
path seats the person who hosts a Lorum table (``lodam host --game lorum``) or joins one
(``lodam join``); ``--bots-only`` tells a table of bots as plain text, and the run loop
is Lodam's (:func:`~lodam_p2p.cli.play_seats.sit_down`) with the Lorum screen.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.netrun import parse_options, result_json
from lodam_p2p.cli.person import Driver, load_registry
from lodam_p2p.cli.play_drivers import choose_driver
from lodam_p2p.cli.play_seats import GameScreen, hosted, lineup_for, sit_down

if TYPE_CHECKING:
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.games.lorum import Options
    from lodam_p2p.tableplan import MatchOutcome, SeatPlan

GAME = "lorum"
DEFAULT_SEATS = 4
#: The bot of the other seats when ``heuristic`` does not play Lorum.
FALLBACK_BOT = "random"
#: The ``--json`` line of a Lorum match: the table, the game, the result, the standings.
summary = result_json


def play_lorum(args: argparse.Namespace) -> int:
    """Play Lorum; exit status 0 when the person left (or the bots' table ended)."""
    given = getattr(args, "given", None) or set()
    if "seats" not in given:
        args.seats = DEFAULT_SEATS
    if not 3 <= args.seats <= 4:
        raise CliError(f"Lorum is for 3 or 4 seats (--seats), got {args.seats}")
    options = getattr(args, "chosen_options", None) or lorum_options(args.option)
    registry = load_registry(args)
    if "bots" not in given:
        args.bots = default_bot(registry)
    lineup = lineup_for(args, registry)
    for name in lineup:
        if not registry.get(name).plays(GAME):
            raise CliError(f"bot {name!r} does not play Lorum (random does)")
    # the terminal client's modules load only when they tell or show a table
    from lodam_p2p.ui.lorum.spectator import LorumSpectatorLog  # noqa: PLC0415

    return sit_down(args, options, lineup, registry, driver=lorum_driver(args),
                    screen=lorum_screen(args, registry, lineup),
                    spectator=LorumSpectatorLog)


def default_bot(registry: BotRegistry) -> str:
    """``heuristic`` when it plays Lorum, else ``random``."""
    if "heuristic" in registry and registry.get("heuristic").plays(GAME):
        return "heuristic"
    return FALLBACK_BOT


def lorum_driver(args: argparse.Namespace) -> Driver:
    """The table that plays the match: the local table with ``--offline``, else the
    network session, handed Lorum ``Options`` and Lorum players."""
    if args.offline:
        # the offline table brings the games' engines: loaded when it is chosen
        from lodam_p2p.local import play_local  # noqa: PLC0415

        async def local(options: Any, seats: Sequence[SeatPlan], seed: int | None
                        ) -> MatchOutcome:
            return await play_local(options=options, seats=seats, seed=seed, game=GAME)

        return local
    return choose_driver(args)


def lorum_options(items: list[str]) -> Options:
    """The Lorum options of ``--option K=V`` items (``rejoin_grace`` is the session's)."""
    options: Options = parse_options(items, GAME)
    return options


def lorum_screen(args: argparse.Namespace, registry: BotRegistry,
                 lineup: Sequence[str]) -> GameScreen:
    """The Lorum screen of the person, for :func:`~lodam_p2p.cli.play_seats.sit_down`."""
    table = "offline" if args.offline else args.table
    hint = hint_bot(registry)

    def screen(start_match: Any, limit: float | None) -> Awaitable[list[MatchOutcome]]:
        # the terminal client (prompt_toolkit) loads only when a person sits down
        from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
        from lodam_p2p.ui.lorum.client import LorumSettings, run_lorum  # noqa: PLC0415

        settings = LorumSettings(table=table, ascii=args.ascii, no_color=no_color_wanted(),
                                 hint=hint, hold_limit=limit, hosted=hosted(args, lineup))
        return run_lorum(start_match, settings)

    return screen


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
            module = importlib.import_module(f"{package}.lorum.heuristic")
        except ImportError:
            continue
        found = getattr(module, "LorumHeuristicBot", None)
        if found is not None:
            return found
    return None
