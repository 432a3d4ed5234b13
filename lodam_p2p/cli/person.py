"""A person at a table, bots beside them: the run loop both games' screens share.

``lodam play`` (either game), ``lodam host`` and ``lodam join`` seat a person the same
way. Every match — the first, and each "play again" — seats the person first and the
bots after them, each bot paced by the person's ``hold`` (it waits while the person
reads the end of a deal, no longer than the hold limit at a timed table), and hands the
seats to the table driver. The screen (the Lodam client or the Lorum one) runs the
matches until the person leaves; their outcomes are reported at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lodam_p2p.cli import CliError
from lodam_p2p.player import Player

if TYPE_CHECKING:
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.tableplan import MatchOutcome, SeatPlan

#: Seconds a bot seat may stay silent at a networked table before it is blamed.
TIMEOUT_S = 30.0
#: Default seconds before a bot seated beside the person plays a card.
DEFAULT_DELAY = 0.6

#: Runs one match: (options, seats, seed) → outcome.
Driver = Callable[[Any, Sequence["SeatPlan"], "int | None"], Coroutine[Any, Any, "MatchOutcome"]]


class Person(Player, Protocol):
    """The person's seat as the run loop sees it: a player with a hold."""

    hold: asyncio.Event


#: Starts one match with the person seated; returns how it ended.
StartMatch = Callable[[Any], Coroutine[Any, Any, "MatchOutcome"]]
#: Runs the screen: (start_match, hold limit) → the outcomes of the matches finished.
Screen = Callable[[StartMatch, "float | None"], Coroutine[Any, Any, "list[MatchOutcome]"]]
#: Makes the bots' seats: (lineup, registry, first seat, seed, wrap) → seats.
BotSeats = Callable[..., "list[SeatPlan]"]


def play_with_person(args: argparse.Namespace, options: Any, lineup: Sequence[str], *,
                     registry: BotRegistry, driver: Driver, bots: BotSeats, screen: Screen,
                     log_path: Path) -> int:
    """Run ``screen`` with the person and ``lineup``'s bots at each match; report."""
    from lodam_p2p.cli.profile import player_name  # noqa: PLC0415
    from lodam_p2p.tableplan import SeatPlan  # noqa: PLC0415
    from lodam_p2p.ui.pacing import hold_limit, paced_by  # noqa: PLC0415

    name = player_name(args.name)
    delay = DEFAULT_DELAY if args.bot_delay is None else args.bot_delay
    limit = hold_limit(None if args.offline else timeout_of(args))
    matches = itertools.count()

    async def start_match(person: Person) -> MatchOutcome:
        k = next(matches)
        seed = None if args.seed is None else args.seed + k
        beside = bots(lineup, registry, first_seat=1, seed=seed,
                      wrap=paced_by(person.hold, delay, limit))
        return await driver(options, [SeatPlan(name, person), *beside], seed)

    outcomes = asyncio.run(screen(start_match, limit))
    report(outcomes, args.json, log_path)
    return 0


def timeout_of(args: argparse.Namespace) -> float:
    """Seconds a bot seat may stay silent (``lodam host``/``join`` pass ``--timeout``)."""
    return float(getattr(args, "timeout", None) or TIMEOUT_S)


def report(outcomes: list[MatchOutcome], as_json: bool, log_path: Path) -> None:
    """One JSON line per match with ``--json``, else how many matches were finished."""
    from lodam_p2p.cli.netrun import result_json  # noqa: PLC0415

    if as_json:
        for outcome in outcomes:
            print(json.dumps(result_json(outcome)))
        return
    done = len(outcomes)
    print(f"lodam: {done} match{'es' if done != 1 else ''} finished; log in {log_path}")


def load_registry() -> BotRegistry:
    """The installed bots, or a one-line error."""
    from lodam_p2p.bots import BotError, BotRegistry  # noqa: PLC0415

    try:
        return BotRegistry.load()
    except BotError as err:
        raise CliError(str(err)) from None
