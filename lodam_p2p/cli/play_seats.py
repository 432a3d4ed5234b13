"""The bots of ``lodam play``: which ones sit down, their seats, and a table of bots only.

Also where the command's log goes (:func:`setup_logging`): to a file that rotates at
:data:`LOG_BYTES` (:data:`LOG_KEPT` old files kept), never over the screen; and the one
line a table that stopped ends the command with (:func:`stopped_line`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import logging.handlers
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lodam_p2p.bots import BotStartError
from lodam_p2p.bots.adapter import BotForfeit, BotPlayer, faults_of
from lodam_p2p.cli import CliError
from lodam_p2p.cli.cmd_bots import BotSetup, bot_setup, start_error
from lodam_p2p.cli.person import Driver, StartMatch, play_with_person
from lodam_p2p.tableplan import SeatPlan

if TYPE_CHECKING:
    from lodam_p2p.bots.faults import BotFault
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.player import Player
    from lodam_p2p.tableplan import MatchOutcome

#: The log file's size before it rotates, and how many old files are kept beside it.
LOG_BYTES = 5_000_000
LOG_KEPT = 3
#: Exit status of a command whose table stopped with an error.
EXIT_STOPPED = 1

#: Names for the bots' seats, as a 17th-century table might have had.
BOT_NAMES = ("Moll", "Ned", "Bess", "Kit", "Joan", "Hal", "Nan", "Wat", "Tib", "Jack")


def lineup_for(args: argparse.Namespace, registry: BotRegistry) -> list[str]:
    """The bots to seat: every free seat, or (hosting, joining) exactly those named."""
    if getattr(args, "join_row", None) is not None:
        _check_bot_options(args, registry, [])  # a person who joins seats no bot here
        return []
    if getattr(args, "host", False):
        # the arena's config brings multiprocessing and statistics: not at start-up
        from lodam_p2p.arena.config import ArenaError, parse_lineup  # noqa: PLC0415

        try:
            wanted = len(parse_lineup(args.bots)) if args.bots.strip() else 0
        except ArenaError as err:
            raise CliError(f"bad bots: {err}") from None
        seated = bot_lineup(args.bots, min(wanted, args.seats - 1), registry) if wanted else []
        _check_bot_options(args, registry, seated)
        return seated
    lineup = bot_lineup(args.bots, args.seats if args.bots_only else args.seats - 1, registry)
    _check_bot_options(args, registry, lineup)
    return lineup


def _check_bot_options(args: argparse.Namespace, registry: BotRegistry,
                       lineup: Sequence[str]) -> None:
    """``--bot-option`` for bots seated here only, with options they have."""
    bot_setup(args).check(registry, lineup, getattr(args, "game", None))


def bot_lineup(text: str, count: int, registry: BotRegistry) -> list[str]:
    """``count`` bot names from ``--bots`` (the last one repeated to fill)."""
    # the arena's config brings multiprocessing and statistics: not at start-up
    from lodam_p2p.arena.config import ArenaError, parse_lineup  # noqa: PLC0415

    try:
        names = list(parse_lineup(text))
    except ArenaError as err:
        raise CliError(f"bad --bots: {err}") from None
    if len(names) > count:
        raise CliError(f"--bots names {len(names)} bots for {count} free seats")
    for name in names:
        if name not in registry:
            raise CliError(f"unknown bot {name!r} (installed: {', '.join(registry.names())})")
    return names + [names[-1]] * (count - len(names))


def setup_logging(path: Path | None) -> Path:
    """Send every log record to ``path`` (default under the XDG state folder)."""
    if path is None:
        state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        path = Path(state) / "lodam" / "lodam.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=LOG_BYTES, backupCount=LOG_KEPT, encoding="utf-8")
    except OSError as err:
        raise CliError(f"cannot write the log file {path}: {err.strerror or err}") from None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    logging.captureWarnings(True)
    return path


def stopped_line(err: BaseException, broker: str | None, log_path: Path | None) -> str:
    """What to print when the table stopped with ``err``: what failed, and what to try."""
    what = str(err) or type(err).__name__
    if "broker" in what.lower() or "connect" in what.lower():
        where = f"the broker at {broker}" if broker else "the broker"
        hint = (f"check that {where} runs and is reachable, or leave out --broker to "
                f"play on an embedded one")
    else:
        hint = "try again; if it happens again, the log says more"
    log = f" (log: {log_path})" if log_path is not None else ""
    return f"the table stopped: {what}; {hint}{log}"


def stopped(err: Exception, args: argparse.Namespace, log_path: Path | None) -> CliError:
    """The one line (exit status 1) of a table that stopped while the screen was open."""
    return CliError(stopped_line(getattr(err, "cause", err), getattr(args, "broker", None),
                                 log_path), EXIT_STOPPED)


async def screen_outcomes(run: Awaitable[list[MatchOutcome]], args: argparse.Namespace,
                          log_path: Path | None, log: logging.Logger) -> list[MatchOutcome]:
    """Await a game's screen: a table that stopped, or a screen that failed (logged to
    ``log``), becomes the one line of :func:`stopped`; the person's own errors pass."""
    # the terminal client (prompt_toolkit) loads only when a person sits down
    from lodam_p2p.ui.matches import TableStopped  # noqa: PLC0415

    try:
        return await run
    except TableStopped as err:
        raise stopped(err, args, log_path) from None
    except CliError:
        raise
    except Exception as err:  # the screen itself failed: closed, logged, one line
        log.error("the screen stopped", exc_info=err)
        raise stopped(err, args, log_path) from None


#: Runs a game's screen: (start_match, hold limit) → the outcomes of the matches played.
GameScreen = Callable[[StartMatch, "float | None"], Awaitable["list[MatchOutcome]"]]


def sit_down(args: argparse.Namespace, options: Any, lineup: list[str],
             registry: BotRegistry, *, driver: Driver, screen: GameScreen,
             spectator: type | None = None) -> int:
    """What ``lodam play`` does at a table of any game once its options, bots and driver
    are chosen: with ``--bots-only`` the bots' table told by ``spectator`` as plain text
    (:func:`bots_only`), else the person at the game's ``screen`` with the bots beside
    them until they leave (:func:`~lodam_p2p.cli.person.play_with_person`); the log goes
    to its file (:func:`setup_logging`) either way."""
    log_path = setup_logging(args.log_file)
    if args.bots_only:
        return bots_only(args, options, lineup, registry, driver, spectator=spectator)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("lodam play needs a terminal (or --bots-only for a table of bots)")
    log = logging.getLogger(__name__)

    async def watched(start_match: StartMatch, limit: float | None) -> list[MatchOutcome]:
        return await screen_outcomes(screen(start_match, limit), args, log_path, log)

    return play_with_person(args, options, lineup, registry=registry, driver=driver,
                            bots=bot_seats, screen=watched, log_path=log_path)


def bot_seats(lineup: Sequence[str], registry: BotRegistry, *, first_seat: int, seed: int | None,
              wrap: Callable[[Player], Player], setup: BotSetup | None = None,
              on_fault: Callable[[BotFault], None] | None = None) -> list[SeatPlan]:
    """One seat per bot of ``lineup``, numbered from ``first_seat``, each player wrapped;
    ``setup`` gives their ``--bot-option`` and ``--strict-bots``, ``on_fault`` is told
    of each of their errors. A bot that cannot be made is one line naming it."""
    # netrun brings the session and the MQTT client: loaded when the bots sit down
    from lodam_p2p.cli.netrun import bot_seed  # noqa: PLC0415

    setup = setup or BotSetup()
    seats = []
    for i, name in enumerate(lineup):
        seat = first_seat + i
        drawn = bot_seed(seed, seat)  # from the OS unless --seed: see netrun.bot_seed
        try:
            bot = registry.make(name, seat, drawn, setup.options_of(name))
        except BotStartError as err:
            raise start_error(err, False) from None
        player = BotPlayer(name, bot, registry.fallback(name, seat), drawn,
                           strict=setup.strict, on_fault=on_fault)
        seats.append(SeatPlan(BOT_NAMES[i % len(BOT_NAMES)], wrap(player), f"bot:{name}"))
    return seats


def bots_only(args: argparse.Namespace, options: Any, lineup: list[str],
              registry: BotRegistry, driver: Driver, *, spectator: type | None = None) -> int:
    """A table of bots only, told by ``spectator`` (a wrapper of the first seat; default
    Lodam's log) as plain text; with ``--json`` the story goes to stderr and stdout has
    only the one-line result."""
    # netrun brings the session and the MQTT client, the ui modules the games' rules:
    # loaded when a table of bots is told, not when `lodam` starts
    from lodam_p2p.cli.netrun import result_json  # noqa: PLC0415
    from lodam_p2p.ui.glyphs import Glyphs  # noqa: PLC0415
    from lodam_p2p.ui.lodam.spectator import SpectatorLog  # noqa: PLC0415
    from lodam_p2p.ui.pacing import PacedPlayer  # noqa: PLC0415

    delay = args.bot_delay or 0.0
    seats = bot_seats(lineup, registry, first_seat=0, seed=args.seed,
                      wrap=lambda p: PacedPlayer(p, delay) if delay else p,
                      setup=bot_setup(args))
    story = sys.stderr if args.json else sys.stdout
    print(legend(seats), file=story, flush=True)
    first = seats[0]
    told = (spectator or SpectatorLog)(first.player, story, Glyphs(args.ascii))
    seats[0] = type(first)(first.name, told, first.kind)

    async def match() -> Any:
        """The match, cancelled when no one reads the story any more (| head)."""
        task = asyncio.ensure_future(driver(options, seats, args.seed))
        told.on_gone = task.cancel
        try:
            return await task
        except asyncio.CancelledError:
            if told.gone:
                return None
            raise

    try:
        outcome = asyncio.run(match())
    except CliError:
        raise
    except BotForfeit as err:  # --strict-bots: the first bot error ends the match
        raise CliError(str(err), EXIT_STOPPED) from None
    except Exception as err:
        logging.getLogger(__name__).error("the table stopped", exc_info=err)
        raise CliError(stopped_line(err, getattr(args, "broker", None), None),
                       EXIT_STOPPED) from None
    if outcome is None:  # the reader went away: nothing more to say, and no one to say it to
        return 0
    if args.json:
        with contextlib.suppress(BrokenPipeError):
            print(json.dumps(result_json(outcome, faults_of(s.player for s in seats),
                                         audited=not getattr(args, "offline", False))),
                  flush=True)
    return 0


def legend(seats: Sequence[SeatPlan]) -> str:
    """Who plays which seat: ``Seats: Moll (heuristic), Ned (random), …``."""
    named = [f"{seat.name} ({seat.kind.removeprefix('bot:')})" for seat in seats]
    return "Seats: " + ", ".join(named) + "."


def hosted(args: argparse.Namespace, lineup: Sequence[str]) -> tuple[str, ...]:
    """The bot seats played here for a table others join (leaving ends them)."""
    if not getattr(args, "host", False):
        return ()
    return tuple(BOT_NAMES[i % len(BOT_NAMES)] for i in range(len(lineup)))
