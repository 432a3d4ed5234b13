"""``lodam play``: sit down at a table with bots, in a full-screen terminal client.

With no arguments: a five-seat table — you and four ``heuristic`` bots — on an embedded
broker on loopback, dealt by the fair-deal protocol, straight into the table view.
``--offline`` plays the same match in this process with the rules engine alone (no
broker, no protocol). ``--bots-only`` seats bots only and writes the table's story as
plain text (``--json``: just the one-line summary at the end).

``--game lorum`` sits you at a Lorum table (LORUM.md) with two or three bots
(``--seats 3`` or ``4``, default 4; ``heuristic`` bots when that bot plays Lorum, else
``random``; ``--option`` takes LORUM.md section 9, e.g. ``contracts=quartet,lorum``),
dealt over the embedded broker by the fair-deal protocol, or with ``--offline`` played by
the same offline table as Losing Lodam. ``--bots-only`` and ``--lobby`` work for it too;
a table joined from the lobby (or by ``lodam join``) is played with its own game's
screen, whatever ``--game`` says.

Bots are paced (``--bot-delay``, default 0.6 s a card) so that a person can follow them.
The log goes to a file (``--log-file``, default ``~/.local/state/lodam/lodam.log``),
never over the screen.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.person import (
    DEFAULT_DELAY,
    Driver,
    load_registry,
    play_with_person,
    timeout_of,
)

if TYPE_CHECKING:
    from lodam_p2p.bots.registry import BotRegistry
    from lodam_p2p.games.lodam import Action, Options, PlayerView
    from lodam_p2p.player import Notice, Player
    from lodam_p2p.tableplan import MatchOutcome, SeatPlan
    from lodam_p2p.ui.lobby import LobbyRow

#: Names for the bots' seats, as a 17th-century table might have had.
BOT_NAMES = ("Moll", "Ned", "Bess", "Kit", "Joan", "Hal", "Nan", "Wat", "Tib", "Jack")
DEFAULT_SEATS = 5
DEFAULT_BOT = "heuristic"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam play``."""
    parser = sub.add_parser("play", help="play at a table with bots (full-screen terminal)",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--game", choices=("lodam", "lorum"), default="lodam",
        help="the game: lodam (Losing Lodam, default) or lorum (LORUM.md)")
    add("--seats", type=int, default=DEFAULT_SEATS, metavar="N", action=Given,
        help=f"seats at the table, 3-10 (default {DEFAULT_SEATS}; Lorum: 3 or 4, default 4)")
    add("--bots", default=DEFAULT_BOT, metavar="NAME,...", action=Given,
        help="bots for the other seats, comma separated, NAME*K for K seats; the last "
             f"one fills the rest (default {DEFAULT_BOT})")
    add("--table", default="kitchen", metavar="NAME", help="table name (default kitchen)")
    add("--broker", metavar="URL", help="play through this broker instead of an embedded one")
    add("--option", action="append", default=[], metavar="K=V",
        help="table option of RULES.md section 12, e.g. lives=1; Lorum: LORUM.md section "
             "9, e.g. contracts=quartet,lorum (repeatable)")
    add("--bot-delay", type=seconds, default=None, metavar="SECONDS",
        help=f"pause before a bot plays a card (default {DEFAULT_DELAY}; 0 with --bots-only)")
    add("--name", default=None,
        help="your name at the table, remembered for next time (default: the last one "
             "given, else your login name)")
    add("--ascii", action="store_true", help="no suit symbols or box lines: plain ASCII")
    add("--offline", action="store_true",
        help="play in this process with the rules engine only (no broker, no protocol)")
    add("--seed", type=int, default=None,
        help="seed the bots' choices; with --offline also the decks and the first dealer "
        "(on the network every secret is drawn fresh)")
    add("--bots-only", action="store_true",
        help="a table of bots only, told as a plain-text log (no screen)")
    add("--json", action="store_true", help="print the one-line JSON summary of the match")
    add("--lobby", action="store_true",
        help="open the lobby first: the tables on the LAN and the broker, or a new one")
    add("--log-file", type=Path, default=None, metavar="PATH",
        help="where to write the log (default ~/.local/state/lodam/lodam.log)")
    add("--state-dir", type=Path, default=None, metavar="DIR",
        help="your seat's journal, to come back after a crash with the same command "
             "(default: a slot under $XDG_STATE_HOME/lodam)")
    parser.set_defaults(run=run)


class Given(argparse.Action):
    """Stores the value and notes that it was given (``args.given``), so that a game
    with other defaults (Lorum) can tell a default from a choice."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        given = getattr(namespace, "given", None) or set()
        namespace.given = given | {self.dest}


def seconds(text: str) -> float:
    """A ``--bot-delay`` value: 0 to 30 seconds."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 30:
        raise argparse.ArgumentTypeError(f"a delay of 0 to 30 seconds, not {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    """Play; exit status 0 when the person left or the match ended."""
    if args.lobby:
        _from_lobby(args)
    if getattr(args, "join_row", None) is not None:
        args.game = _joined_game(args)
    if getattr(args, "game", "lodam") == "lorum":
        from lodam_p2p.cli.play_lorum import play_lorum  # noqa: PLC0415

        return play_lorum(args)
    options = getattr(args, "chosen_options", None) or _options(args.option)
    if not 3 <= args.seats <= 10:
        raise CliError(f"--seats must be 3 to 10 (RULES.md section 3), got {args.seats}")
    registry = load_registry()
    lineup = lineup_for(args, registry)
    log_path = setup_logging(args.log_file)
    driver = choose_driver(args)
    if args.bots_only:
        return bots_only(args, options, lineup, registry, driver)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("lodam play needs a terminal (or --bots-only for a table of bots)")
    return play_with_person(args, options, lineup, registry=registry, driver=driver,
                            bots=bot_seats, screen=_screen(args, registry, lineup),
                            log_path=log_path)


def _joined_game(args: argparse.Namespace) -> str:
    """The game of the table joined (``lodam join TABLE``, or a lobby row): the one its
    announcement says, read from the broker when the row does not carry it."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("a seat in the terminal client needs a terminal (or --bot NAME)")
    row: Any = args.join_row
    known = getattr(row, "game", None)
    if known:
        return str(known)
    from lodam_p2p.cli.netrun import joined_game  # noqa: PLC0415

    return joined_game(args, row.table, row.broker)


def _from_lobby(args: argparse.Namespace) -> None:
    """Let the person choose in the lobby; fill ``args`` for the table they created."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise CliError("the lobby needs a terminal")
    from lodam_p2p.cli.cmd_tables import gather_tables  # noqa: PLC0415
    from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl  # noqa: PLC0415
    from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
    from lodam_p2p.ui.glyphs import Glyphs  # noqa: PLC0415
    from lodam_p2p.ui.lobby_app import LobbyApp  # noqa: PLC0415

    try:
        broker = BrokerUrl.parse(args.broker) if args.broker else None
    except BadBrokerUrl as err:
        raise CliError(str(err)) from None

    async def find() -> list[LobbyRow]:
        rows = await gather_tables(broker, 2.0)
        return [_lobby_row(row) for row in rows]

    app = LobbyApp(find, glyphs=Glyphs(args.ascii), no_color=no_color_wanted(),
                   game=getattr(args, "game", None) or "lodam")
    choice = asyncio.run(app.run())
    if choice is None:
        raise SystemExit(0)
    if choice.join is not None:
        args.join_row, args.table, args.bots = choice.join, choice.join.table, ""
        return
    args.host, args.table, args.seats, args.game = True, choice.table, choice.seats, choice.game
    args.bots, args.chosen_options = choice.bots, choice.options
    args.given = (getattr(args, "given", None) or set()) | {"seats", "bots"}


def _lobby_row(row: Any) -> LobbyRow:
    from lodam_p2p.ui.lobby import LobbyRow  # noqa: PLC0415

    a = row.announcement
    found = "+".join(sorted(row.found))
    if a is None:
        return LobbyRow(row.table, row.broker, found=found)
    return LobbyRow(row.table, row.broker, len(a.seated), a.seats, a.state, a.host, found,
                    a.joinable, a.game)


def _options(items: Sequence[str]) -> Options:
    from lodam_p2p.cli.netrun import session_options  # noqa: PLC0415
    from lodam_p2p.games.lodam import Options  # noqa: PLC0415 - keep `lodam` start fast

    try:
        return Options.parse_assignments(session_options(items)[0])
    except ValueError as err:  # the rules' errors are ValueErrors
        raise CliError(f"bad --option: {err}") from None


def lineup_for(args: argparse.Namespace, registry: BotRegistry) -> list[str]:
    """The bots to seat: every free seat, or (hosting, joining) exactly those named."""
    if getattr(args, "join_row", None) is not None:
        return []
    if getattr(args, "host", False):
        from lodam_p2p.arena.config import ArenaError, parse_lineup  # noqa: PLC0415

        try:
            wanted = len(parse_lineup(args.bots)) if args.bots.strip() else 0
        except ArenaError as err:
            raise CliError(f"bad bots: {err}") from None
        return bot_lineup(args.bots, min(wanted, args.seats - 1), registry) if wanted else []
    return bot_lineup(args.bots, args.seats if args.bots_only else args.seats - 1, registry)


def bot_lineup(text: str, count: int, registry: BotRegistry) -> list[str]:
    """``count`` bot names from ``--bots`` (the last one repeated to fill)."""
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
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
    except OSError as err:
        raise CliError(f"cannot write the log file {path}: {err.strerror or err}") from None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    logging.captureWarnings(True)
    return path


def choose_driver(args: argparse.Namespace) -> Driver:
    """The offline driver with ``--offline``, else the network session."""
    if args.offline:
        from lodam_p2p.local import play_local  # noqa: PLC0415

        async def local(options: Options, seats: Sequence[SeatPlan], seed: int | None
                        ) -> MatchOutcome:
            return await play_local(options=options, seats=seats, seed=seed)

        return local
    from lodam_p2p import session  # noqa: PLC0415 - keep `lodam --help` fast

    row: Any = getattr(args, "join_row", None)
    game = getattr(args, "game", None) or "lodam"

    def same_game(found: Any) -> None:
        # the screen was chosen for the game the table announced a moment ago
        if found.game != game:
            raise session.SessionError(f"table {found.table} now plays {found.game}, "
                                       f"not {game}")

    # On the network ``seed`` reaches the bots only (bot_seats): every secret of the
    # session — identity, hand keys, shuffles, salts, the lot — is drawn from the OS.
    async def join(options: Options, seats: Sequence[SeatPlan], seed: int | None
                   ) -> MatchOutcome:
        return await session.join_table(
            table=row.table, seat=seats[0], broker_url=row.broker,
            timing=_timing(args), journal=_journal(args, row.table), accept=same_game)

    async def host(options: Options, seats: Sequence[SeatPlan], seed: int | None
                   ) -> MatchOutcome:
        def tell(url: str) -> None:
            # the person at the first seat learns where the others should join
            if seats:
                seats[0].player.notify(hosting_notice(args.table, url))

        journal, timing = _journal(args, args.table), _timing(args)
        listen = getattr(args, "listen", None)
        own = None if args.broker else await _own_broker(journal.directory, listen, timing)
        try:
            return await session.host_table(
                table=args.table, seats=args.seats, options=options, local=seats,
                broker_url=own.url if own is not None else args.broker, listen=listen,
                on_broker=tell, timing=timing, journal=journal, game=game)
        finally:
            if own is not None:
                await asyncio.to_thread(own.stop)

    if row is not None:
        return join
    if getattr(args, "host", False):
        return host

    async def network(options: Options, seats: Sequence[SeatPlan], seed: int | None
                      ) -> MatchOutcome:
        return await session.play_table(
            table=args.table, options=options, seats=seats, broker_url=args.broker,
            timing=_timing(args), game=game)

    return network


async def _own_broker(directory: Any, listen: str | None, timing: Any) -> Any:
    """The host's broker process (:mod:`lodam_p2p.hostbroker`), started (or found again)
    off the event loop; a :class:`SessionError` if it cannot start."""
    from lodam_p2p.broker import BrokerStartError, ListenAddress  # noqa: PLC0415
    from lodam_p2p.hostbroker import host_broker  # noqa: PLC0415
    from lodam_p2p.session import SessionError  # noqa: PLC0415

    try:
        address = ListenAddress.parse(listen) if listen else ListenAddress("127.0.0.1", 1883)
        return await asyncio.to_thread(host_broker, directory, address, timing.grace_s)
    except (BrokerStartError, ValueError) as err:
        raise SessionError(str(err)) from None


def _journal(args: argparse.Namespace, table: str | None) -> Any:
    """The seat's journal (``--state-dir``, else a default slot); held until exit."""
    from lodam_p2p.cli.netrun import journal_for  # noqa: PLC0415

    return journal_for(args, table)


def _timing(args: argparse.Namespace) -> Any:
    """Session timing: the ``--timeout`` limit and the ``rejoin_grace`` of ``--option``."""
    from lodam_p2p.cli.netrun import session_options  # noqa: PLC0415
    from lodam_p2p.session import Timing  # noqa: PLC0415

    return Timing(timeout_s=timeout_of(args),
                  grace_s=session_options(getattr(args, "option", []) or [])[1])


def hosting_notice(table: str, url: str) -> Notice:
    """Where the others join a table hosted here."""
    from lodam_p2p.player import Notice, NoticeLevel  # noqa: PLC0415

    return Notice(NoticeLevel.INFO,
                  f"Hosting {table} on {url}: others join with 'lodam join {table} --broker {url}'")


def play_defaults() -> argparse.Namespace:
    """The arguments of a bare ``lodam play``, for commands that seat a person too
    (``lodam join TABLE``, ``lodam host``)."""
    root = argparse.ArgumentParser(prog="lodam")
    register(root.add_subparsers())
    return root.parse_args(["play"])


def bot_seats(lineup: Sequence[str], registry: BotRegistry, *, first_seat: int, seed: int | None,
              wrap: Callable[[Player], Player]) -> list[SeatPlan]:
    """One seat per bot of ``lineup``, numbered from ``first_seat``, each player wrapped."""
    from lodam_p2p.bots.adapter import BotPlayer  # noqa: PLC0415
    from lodam_p2p.tableplan import SeatPlan  # noqa: PLC0415

    seats = []
    for i, name in enumerate(lineup):
        seat = first_seat + i
        bot_type = registry.get(name)
        bot_seed = (seed or 0) * 1000 + seat
        player = BotPlayer(name, bot_type.make(seat, bot_seed), registry.fallback(name, seat),
                           bot_seed)
        seats.append(SeatPlan(BOT_NAMES[i % len(BOT_NAMES)], wrap(player), f"bot:{name}"))
    return seats


def bots_only(args: argparse.Namespace, options: Any, lineup: list[str],
              registry: BotRegistry, driver: Driver, *, spectator: type | None = None) -> int:
    """A table of bots only, told by ``spectator`` (a wrapper of the first seat; default
    Lodam's log) as plain text; with ``--json`` the story goes to stderr and stdout has
    only the one-line result."""
    from lodam_p2p.cli.netrun import result_json  # noqa: PLC0415
    from lodam_p2p.ui.glyphs import Glyphs  # noqa: PLC0415
    from lodam_p2p.ui.pacing import PacedPlayer  # noqa: PLC0415
    from lodam_p2p.ui.spectator import SpectatorLog  # noqa: PLC0415

    delay = args.bot_delay or 0.0
    seats = bot_seats(lineup, registry, first_seat=0, seed=args.seed,
                      wrap=lambda p: PacedPlayer(p, delay) if delay else p)
    story = sys.stderr if args.json else sys.stdout
    first = seats[0]
    told = (spectator or SpectatorLog)(first.player, story, Glyphs(args.ascii))
    seats[0] = type(first)(first.name, told, first.kind)
    outcome = asyncio.run(driver(options, seats, args.seed))
    if args.json:
        print(json.dumps(result_json(outcome)))
    return 0


def _screen(args: argparse.Namespace, registry: BotRegistry, lineup: Sequence[str]) -> Any:
    """The Lodam screen, for :func:`~lodam_p2p.cli.person.play_with_person`."""
    from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
    from lodam_p2p.ui.client import ClientOptions, run_client  # noqa: PLC0415

    client = ClientOptions(table="offline" if args.offline else args.table, ascii=args.ascii,
                           no_color=no_color_wanted(), hint=_hint(registry),
                           hosted=hosted(args, lineup))

    async def screen(start_match: Any, limit: float | None) -> list[MatchOutcome]:
        return await run_client(start_match, client)

    return screen


def hosted(args: argparse.Namespace, lineup: Sequence[str]) -> tuple[str, ...]:
    """The bot seats played here for a table others join (leaving ends them)."""
    if not getattr(args, "host", False):
        return ()
    return tuple(BOT_NAMES[i % len(BOT_NAMES)] for i in range(len(lineup)))


def _hint(registry: BotRegistry) -> Callable[[PlayerView], Action] | None:
    if DEFAULT_BOT not in registry:
        return None
    bot_type = registry.get(DEFAULT_BOT)
    return lambda view: bot_type.make(view.seat, 0).decide(view)
