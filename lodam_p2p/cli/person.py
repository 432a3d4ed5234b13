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

from lodam_p2p.bots.adapter import faults_of
from lodam_p2p.cli.cmd_bots import bot_setup
from lodam_p2p.cli.play_pace import DEFAULT_DELAY
from lodam_p2p.cli.profile import player_name
from lodam_p2p.player import Notice, NoticeLevel, Player
from lodam_p2p.tableplan import SeatPlan

if TYPE_CHECKING:
    from lodam_p2p.bots.faults import BotFault
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.tableplan import MatchOutcome

#: Seconds a bot seat may stay silent at a networked table before it is blamed.
TIMEOUT_S = 30.0

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
    # the pacing wrapper reads Lodam's decisions: the games load once a person sits
    from lodam_p2p.ui.pacing import hold_limit, paced_by  # noqa: PLC0415

    name = player_name(args.name)
    delay = DEFAULT_DELAY if args.bot_delay is None else args.bot_delay
    limit = hold_limit(None if args.offline else timeout_of(args))
    matches = itertools.count()

    setup = bot_setup(args)
    played: list[list[SeatPlan]] = []

    async def start_match(person: Person) -> MatchOutcome:
        k = next(matches)
        seed = None if args.seed is None else args.seed + k
        beside = bots(lineup, registry, first_seat=1, seed=seed,
                      wrap=paced_by(person.hold, delay, limit), setup=setup,
                      on_fault=bot_error_notice(person))
        played.append(beside)
        return await driver(options, [SeatPlan(name, person), *beside], seed)

    outcomes = asyncio.run(screen(start_match, limit))
    report(outcomes, args.json, log_path,
           [faults_of(seat.player for seat in seats) for seats in played],
           audited=not args.offline)
    return 0


def bot_error_notice(person: Player) -> Callable[[BotFault], None]:
    """Tells the person of each bot error of the match, counted: a warning line on the
    screen (``bot error 2: bot 'x' at seat 3 answered …``); the log has the traceback."""
    count = itertools.count(1)

    def tell(fault: BotFault) -> None:
        person.notify(Notice(NoticeLevel.WARNING, f"bot error {next(count)}: {fault.message}"))

    return tell


def timeout_of(args: argparse.Namespace) -> float:
    """Seconds a bot seat may stay silent (``lodam host``/``join`` pass ``--timeout``)."""
    return float(getattr(args, "timeout", None) or TIMEOUT_S)


def report(outcomes: list[MatchOutcome], as_json: bool, log_path: Path,
           faults: Sequence[Sequence[BotFault]] = (), *, audited: bool = True) -> None:
    """One JSON line per match with ``--json`` (with the bot errors of each match,
    ``faults``), else how many matches were finished."""
    # netrun brings the session and the MQTT client: loaded at the end of a match only
    from lodam_p2p.cli.netrun import result_json  # noqa: PLC0415

    if as_json:
        for k, outcome in enumerate(outcomes):
            print(json.dumps(result_json(outcome, faults[k] if k < len(faults) else (),
                                         audited=audited)))
        return
    done = len(outcomes)
    print(f"lodam: {done} match{'es' if done != 1 else ''} finished; log in {log_path}")


def load_registry(args: argparse.Namespace | None = None) -> BotRegistry:
    """The installed bots (and those of ``--plugin-dir``), or a one-line error."""
    return bot_setup(args if args is not None else argparse.Namespace()).registry()
