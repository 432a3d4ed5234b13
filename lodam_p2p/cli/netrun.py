"""What ``lodam host``, ``join`` and ``bot`` share: bot seats, the log, the JSON line.

A finished match ends with the spectator log's last lines and — with ``--json`` — exactly
one JSON line on stdout (:meth:`~lodam_p2p.tableplan.MatchOutcome.to_json`), the log
then going to stderr. Failures are one line (``lodam: …``) through ``CliError``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import secrets
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from lodam_p2p.bots import BotError, BotRegistry, BotStartError, PluginLoadError
from lodam_p2p.bots.adapter import BotForfeit, BotPlayer, bot_players, faults_of, forfeits_of
from lodam_p2p.bots.faults import BotFault
from lodam_p2p.cli import CliError
from lodam_p2p.cli.broker_list import add_broker, check_brokers
from lodam_p2p.cli.cmd_bots import BotSetup, check_table_options, start_error
from lodam_p2p.cli.play_pace import DEFAULT_DELAY, seconds
from lodam_p2p.games import DEFAULT_GAME, Game, GameError, game_names, get_game
from lodam_p2p.session.course import Timing
from lodam_p2p.session.effects import SessionError
from lodam_p2p.session.journal import SEAT, Journal, JournalError, default_state_root
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.table import TABLE_PATIENCE_S, find_announcement, mqtt_connector
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport import ConnectError, topics

#: Exit status when the match could not be played (broker unreachable, table gone …).
EXIT_FAILED = 1
#: Session options among ``--option`` values (the rest are rules options).
SESSION_OPTIONS = ("rejoin_grace",)
#: Seconds the table waits for a seat that is gone (``--option rejoin_grace``).
DEFAULT_REJOIN_GRACE = 60.0
#: Bits of OS entropy in the seed of a bot without ``--seed``.
BOT_SEED_BITS = 128
#: The one line a networked table's ``--seed`` earns on stderr.
SEEDED_WARNING = ("lodam: warning: --seed makes this table's bots predictable: whoever knows "
                  "or guesses the seed can replay their choices and read their hidden hands")


def bot_seed(seed: int | None, place: int) -> int:
    """The seed of the bot at ``place``: derived from ``--seed`` when one is given (a
    replayable match), else drawn from the OS. A bot's choices follow its hand, so a
    bot whose choices others can predict shows them that hand."""
    if seed is None:
        return secrets.randbits(BOT_SEED_BITS)
    return seed * 1000 + place


def warn_seeded(seed: int | None) -> None:
    """Say on stderr that ``--seed`` makes a networked seat's bots predictable."""
    if seed is not None:
        print(SEEDED_WARNING, file=sys.stderr, flush=True)


def bot_seats(names: Sequence[str], seed: int | None,
              game: str | None = DEFAULT_GAME, setup: BotSetup | None = None, *,
              verbose: bool = False) -> list[SeatPlan]:
    """One seat per bot name, each bot made by its plugin (``random``, ``heuristic`` …);
    each must play ``game`` (None: the table's game is not known yet). These bots play
    at a networked table: their seeds come from the OS unless ``seed`` is given, and a
    given one is warned about (:func:`warn_seeded`). ``setup`` (``--plugin-dir``,
    ``--bot-option``, ``--strict-bots``) is checked first; a bot that cannot be made is
    one line naming it and its source (its traceback first with ``verbose``)."""
    if not names:
        return []
    setup = setup or BotSetup()
    registry = setup.registry()
    setup.check(registry, names, game)
    warn_seeded(seed)
    seats = []
    for place, name in enumerate(names):
        try:
            bot_type = registry.get(name)
            if game is not None:
                bot_type.check_game(game)
            drawn = bot_seed(seed, place)
            bot = registry.make(name, place, drawn, setup.options_of(name), game)
        except BotStartError as err:
            raise start_error(err, verbose) from None
        except BotError as err:
            raise CliError(str(err)) from None
        player = BotPlayer(name, bot, registry.fallback(name, place), drawn,
                           strict=setup.strict)
        seats.append(SeatPlan(f"{name}-{place + 1}" if len(names) > 1 else name, player,
                              f"bot:{name}"))
    return seats


def session_options(items: Sequence[str]) -> tuple[list[str], float]:
    """Split ``--option`` values into the rules' and the rejoin grace (seconds); one
    meant for a bot (``NAME.key=value``) is a one-line error."""
    check_table_options(items)
    rules, grace = [], DEFAULT_REJOIN_GRACE
    for item in items:
        key, _, value = item.partition("=")
        if key.strip() not in SESSION_OPTIONS:
            rules.append(item)
            continue
        try:
            grace = float(value)
        except ValueError:
            raise CliError(f"bad --option: {key.strip()} must be a number of seconds, "
                           f"not {value!r}") from None
        if not 0 < grace <= 86400:
            raise CliError("bad --option: rejoin_grace must be between 0 and 86400 seconds")
    return rules, grace


def bot_plays(name: str, game: str, setup: BotSetup | None = None) -> None:
    """:class:`SessionError` when the bot ``name`` does not play ``game`` (a table's game
    learnt from its announcement), or one of its ``--bot-option`` keys is not its
    option in that game."""
    try:
        bot_type = BotRegistry.load([Path(d) for d in setup.plugin_dirs] if setup else [])\
            .get(name)
        bot_type.check_game(game)
        bot_type.parse_options(setup.options_of(name) if setup else {}, game)
    except (BotError, PluginLoadError) as err:
        raise SessionError(str(err)) from None


def game_for(name: str) -> Game:
    """The game called ``name`` (``--game``), or a one-line error."""
    try:
        return get_game(name)
    except GameError as err:
        raise CliError(str(err)) from None


def add_game(parser: argparse.ArgumentParser) -> None:
    """``--game NAME``."""
    parser.add_argument("--game", default=DEFAULT_GAME, metavar="NAME",
                        help=f"the game the table plays: {', '.join(game_names())} "
                             f"(default {DEFAULT_GAME})")


def parse_options(items: Sequence[str], game: str = DEFAULT_GAME) -> Any:
    """``--option k=v`` values of ``game``, or a one-line error naming the bad option."""
    try:
        return game_for(game).parse_options(session_options(items)[0])
    except ValueError as err:
        raise CliError(f"bad --option: {err}") from None


def check_table(name: str) -> str:
    """A table name usable on the wire, or a one-line error."""
    try:
        return topics.check_name(name, "table")
    except topics.BadName as err:
        raise CliError(str(err)) from None


def check_broker(url: str | None) -> str | None:
    """A broker URL, or a comma-separated list of them, that parses (in its one-string
    form), or a one-line error."""
    return check_brokers(url)


def add_common(parser: argparse.ArgumentParser) -> None:
    """``--broker``, ``--json``, ``--timeout``, ``--seed``, ``--verbose``, ``--state-dir``
    and ``--transcripts``."""
    add_broker(parser)
    parser.add_argument("--json", action="store_true",
                        help="print one JSON line with the result (the log goes to stderr)")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S",
                        help="hosting: the table's time limit, the same for every seat, "
                        "after which the others vote a silent seat out (default 30; 300 when a "
                        "person sits at the host); a joining seat follows its host's limit")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed the bots' choices only (default: drawn from the OS); it "
                        "makes them predictable to anyone who knows it, which shows their "
                        "hands. Identity, hand keys, shuffles, salts and the lot are always "
                        "drawn fresh from the OS")
    parser.add_argument("-v", "--verbose", action="store_true", help="log ignored messages")
    parser.add_argument("--state-dir", metavar="DIR", type=Path,
                        help="this seat's journal, to come back after a crash with the same "
                             "command (default: a slot under $XDG_STATE_HOME/lodam)")
    parser.add_argument("--transcripts", metavar="DIR", type=Path,
                        help="write each hand's transcript, as every seat played here saw it, "
                             "into DIR (TABLE-handNNNN-seatS.json; the host's watcher: "
                             "-watcher), for 'lodam verify'; not with the terminal client")


def add_session_options(parser: argparse.ArgumentParser) -> None:
    """``--option rejoin_grace=S`` for commands without rules options."""
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="rejoin_grace=SECONDS: how long the table waits for a seat "
                             "that is gone (default 60)")


def journal_for(args: argparse.Namespace, table: str | None, role: str = SEAT) -> Journal:
    """The journal: ``--state-dir``, else a free slot under the user's state directory
    for a process whose first session is ``role`` (see :meth:`Journal.pick`)."""
    try:
        state_dir = getattr(args, "state_dir", None)
        if state_dir is not None:
            return Journal.open(state_dir)
        return Journal.pick(default_state_root(), table, role)
    except (JournalError, OSError) as err:
        raise CliError(str(err)) from None


def add_person(parser: argparse.ArgumentParser) -> None:
    """``--name``, ``--bot-delay`` and ``--ascii``: for a person in the terminal client."""
    parser.add_argument("--name", help="your name at the table, remembered for next time "
                                       "(default: the last one given, else your login name)")
    parser.add_argument("--bot-delay", type=seconds, default=None, metavar="SECONDS",
                        help=f"pause before a bot seated here plays a card (default "
                             f"{DEFAULT_DELAY})")
    parser.add_argument("--ascii", action="store_true", help="no suit symbols or box lines")


def spectator_for(args: argparse.Namespace, table: str) -> SpectatorLog:
    """The spectator log: stdout, or stderr when stdout carries the JSON line."""
    return SpectatorLog(table, sys.stderr if args.json else sys.stdout)


def timing_for(args: argparse.Namespace) -> Timing:
    """Timeouts from the command line."""
    if not 0 < args.timeout <= 3600:
        raise CliError("--timeout must be between 0 and 3600 seconds")
    _rules, grace = session_options(getattr(args, "option", []) or [])
    return Timing(timeout_s=args.timeout, grace_s=grace)


def run_match(args: argparse.Namespace,
              match: Callable[[], Awaitable[MatchOutcome]], players: Sequence[Any] = ()) -> int:
    """Run ``match`` to the end and report it; 0 once a result is in.

    ``players`` are the seats played here: their bots' errors go into the JSON line
    (``bot_errors``). A strict bot's first error ends the match for its seat (a
    forfeit), and a seat the table voted out ends it too: exit status 1 then."""
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="lodam: %(message)s", stream=sys.stderr)

    async def main() -> MatchOutcome:
        task = asyncio.ensure_future(match())
        for bot in bot_players(players):
            bot.on_forfeit = lambda _forfeit: _cancel(task)
        return await task

    try:
        outcome = asyncio.run(main())
    except (SessionError, ConnectError) as err:
        raise CliError(str(err), EXIT_FAILED) from None
    except asyncio.CancelledError:
        forfeits = forfeits_of(players)
        if not forfeits:
            raise
        return _forfeited(args, forfeits[0], players)
    if args.json:
        print(json.dumps(result_json(outcome, faults_of(players))), flush=True)
    blamed = [bot.blamed for bot in bot_players(players) if bot.blamed]
    if blamed:
        print(f"lodam: the table put this seat out: {blamed[0]}", file=sys.stderr, flush=True)
        return EXIT_FAILED
    return 0


def _cancel(task: asyncio.Future[Any]) -> None:
    task.cancel()


def _forfeited(args: argparse.Namespace, forfeit: BotForfeit, players: Sequence[Any]) -> int:
    """A strict seat gave up: its JSON line (``forfeited``) and one line; exit 1."""
    if args.json:
        print(json.dumps({"forfeited": True,
                          "bot_errors": [f.to_json() for f in faults_of(players)]}),
              flush=True)
    raise CliError(str(forfeit), EXIT_FAILED)


def result_json(outcome: MatchOutcome, faults: Sequence[BotFault] = (), *,
                audited: bool = True) -> dict[str, object]:
    """The ``--json`` line of a match, the same shape for every game (docs/results.md):
    the table, the game, the outcome, the seats best first, the broker's faults the
    seat saw (split views, replays, withheld frames: docs/results.md), and the
    errors of the bots played here (``bot_errors``: kind, seat, decision, message).
    An offline table (``audited`` false) audits nothing, as its screen and log say
    ("Audit: not needed"): its ``audits_passed`` is 0 and ``audited`` false."""
    line = outcome.to_json()
    if not audited:
        line["audits_passed"] = 0
    return {"table": line.pop("table"), "game": outcome.game, **line, "audited": audited,
            "standings": list(outcome.standings), "broker_faults": list(outcome.broker_faults),
            "bot_errors": [fault.to_json() for fault in faults]}


def joined_game(args: argparse.Namespace, table: str, broker: str) -> str:
    """The game of ``table`` on ``broker``, for a person about to join it: that of the
    match this seat's journal holds there (it comes back to it), else the game the
    table's announcement names."""
    kept = kept_game(args, table)
    if kept is not None:
        return kept

    def waiting(why: str) -> None:
        print(f"lodam: {why}: looking again", file=sys.stderr, flush=True)

    try:
        return asyncio.run(announced_game(table, broker, waiting))
    except (SessionError, ConnectError) as err:
        raise CliError(str(err), EXIT_FAILED) from None


def kept_game(args: argparse.Namespace, table: str) -> str | None:
    """The game of the match this seat's journal holds at ``table``, if any."""
    journal = journal_for(args, table)
    try:
        kept = journal.entry(SEAT) if journal.resumable(table, SEAT) else {}
    finally:
        journal.close()
    start = kept.get("start")
    if isinstance(start, list) and len(start) > 1 and isinstance(start[1], dict):
        return str(start[1].get("game", DEFAULT_GAME))
    return None


async def announced_game(table: str, broker: str, waiting: Callable[[str], None]) -> str:
    """The game ``table``'s announcement on ``broker`` names, looked for again every
    second up to the table's patience (``waiting`` told why it is not there yet);
    :class:`SessionError` or :class:`ConnectError` when it does not come."""
    return (await find_announcement(mqtt_connector(broker), table, waiting=waiting,
                                    patience_s=TABLE_PATIENCE_S)).game
