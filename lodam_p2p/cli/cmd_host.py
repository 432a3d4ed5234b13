"""``lodam host``: host a table on a broker, seat local bots, and follow the match.

With a terminal you sit at the first seat in the full-screen client (as in ``lodam
play``), beside the ``--bot`` seats; ``--watch`` (or no terminal) only hosts, seats the
bots and prints the spectator log.

Without ``--broker`` the embedded amqtt broker is started beside the host, as a
process of its own that outlives a crashed host (the same command with the same
``--state-dir`` finds it again and the match goes on; it stops when the host is done),
on loopback
(``127.0.0.1:1883``) unless ``--listen`` names another address: give the LAN address (or
``0.0.0.0:1883``) to host for other machines, and the table is then advertised by
DNS-SD. Others join with ``lodam join TABLE --broker URL`` or ``lodam bot NAME``. With
``--json`` a finished match prints one JSON line (``table``, ``game``, ``winners``,
``deals``, ``audits_passed``, ``blames``, ``standings``).

``--game lorum`` hosts Lorum (3 or 4 seats; ``--option`` takes every LORUM.md option,
``first_last_short`` too: its stack carries over still encrypted); the person sits at
the Lorum screen, and those who join with ``lodam join`` get it too.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator

from lodam_p2p.cli import CliError
from lodam_p2p.cli.bot_flags import Lineup
from lodam_p2p.cli.cmd_bots import add_bot_arguments, bot_setup
from lodam_p2p.cli.netrun import (
    EXIT_FAILED,
    add_common,
    add_game,
    add_person,
    bot_seats,
    check_broker,
    check_table,
    game_for,
    journal_for,
    parse_options,
    run_match,
    spectator_for,
    timing_for,
)
from lodam_p2p.session import Timing, host_table
from lodam_p2p.session.journal import HOST, Journal
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.transport.broker import LOOPBACK, MQTT_PORT, BrokerStartError, ListenAddress
from lodam_p2p.transport.hostbroker import host_broker, on_loopback


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam host``."""
    parser = sub.add_parser("host", help="host a table (bots here, others join)",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", required=True, help="the table's name")
    parser.add_argument("--seats", type=int, required=True,
                        help="seats at the table (Lodam 3-10, Lorum 3-4)")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="a rules option, e.g. lives=2 (repeatable; see "
                             "'lodam rules show-options --game NAME')")
    add_game(parser)
    parser.add_argument("--bot", action="append", default=[], metavar="NAME",
                        help="seat a bot here (repeatable: --bot random --bot heuristic)")
    parser.add_argument("--bots", dest="bot", action=Lineup, metavar="LINEUP",
                        help="bots to seat here as a lineup: heuristic,random*2 is the same "
                             "as --bot heuristic --bot random --bot random")
    parser.add_argument("--watch", action="store_true",
                        help="only host and log the match; nobody sits here but the bots")
    parser.add_argument("--listen", metavar="HOST:PORT",
                        help="where the embedded broker listens (default 127.0.0.1:1883)")
    add_common(parser)
    add_person(parser)
    add_bot_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Host the table until its match is over."""
    game = game_for(args.game)
    if not args.watch and sys.stdin.isatty() and sys.stdout.isatty():
        return host_in_client(args)
    table = check_table(args.table)
    if args.seats not in game.seats:
        raise CliError(f"--seats must be between {game.seats.low} and {game.seats.high} "
                       f"for {game.title}")
    if len(args.bot) > args.seats:
        raise CliError(f"{len(args.bot)} bots do not fit at {args.seats} seats")
    if args.broker and args.listen:
        raise CliError("--listen is for the embedded broker; drop it with --broker")
    options = parse_options(args.option, game.name)
    broker = check_broker(args.broker)
    seats = bot_seats(args.bot, args.seed, game.name, bot_setup(args), verbose=args.verbose)
    timing = timing_for(args)
    journal = journal_for(args, table, HOST)

    def tell(url: str) -> None:
        print(f"lodam: hosting table {table} on {url}; join with: lodam bot NAME --table "
              f"{table} --broker {url}", file=sys.stderr, flush=True)
        if on_loopback(url):
            print(f"lodam: only this machine can join; to open the table to the LAN, host "
                  f"with --listen 0.0.0.0:{url.rsplit(':', 1)[-1]}", file=sys.stderr,
                  flush=True)

    try:
        with table_broker(broker, args.listen, journal, timing) as url:
            async def match() -> MatchOutcome:
                return await host_table(table=table, seats=args.seats, options=options,
                                        local=seats, broker_url=url, listen=args.listen,
                                        timing=timing, spectator=spectator_for(args, table),
                                        on_broker=tell, journal=journal, game=game.name,
                                        transcripts=args.transcripts)

            return run_match(args, match, [seat.player for seat in seats])
    finally:
        journal.close()


@contextlib.contextmanager
def table_broker(broker: str | None, listen: str | None, journal: Journal,
                 timing: Timing) -> Iterator[str]:
    """``--broker``, else the host's own broker process (:mod:`lodam_p2p.transport.hostbroker`),
    recorded in the journal's directory and stopped at the end."""
    if broker is not None:
        yield broker
        return
    try:
        address = ListenAddress.parse(listen) if listen else ListenAddress(LOOPBACK, MQTT_PORT)
    except ValueError as err:
        raise CliError(str(err)) from None
    try:
        own = host_broker(journal.directory, address, timing.grace_s)
    except BrokerStartError as err:
        raise CliError(str(err), EXIT_FAILED) from None
    if own.reused:
        print(f"lodam: the table's broker at {own.url} is still up: using it again",
              file=sys.stderr, flush=True)
    try:
        yield own.url
    finally:
        own.stop()


def host_in_client(args: argparse.Namespace) -> int:
    """Host with the person at the first seat, in the terminal client."""
    from lodam_p2p.cli import cmd_play  # noqa: PLC0415 - the client loads only when needed

    table = check_table(args.table)
    game = game_for(args.game)
    if args.seats not in game.seats:
        raise CliError(f"--seats must be between {game.seats.low} and {game.seats.high} "
                       f"for {game.title}")
    if args.broker and args.listen:
        raise CliError("--listen is for the embedded broker; drop it with --broker")
    if len(args.bot) >= args.seats:
        raise CliError(f"{len(args.bot)} bots and you do not fit at {args.seats} seats")
    play = cmd_play.play_defaults()
    play.host, play.table, play.seats, play.game = True, table, args.seats, game.name
    play.bots, play.chosen_options = ",".join(args.bot), parse_options(args.option, game.name)
    play.given = {"seats", "bots"}
    play.broker, play.listen = check_broker(args.broker), args.listen
    play.seed, play.json, play.timeout = args.seed, args.json, args.timeout
    play.name, play.bot_delay, play.ascii = args.name, args.bot_delay, args.ascii
    play.state_dir, play.option = args.state_dir, args.option
    play.plugin_dir, play.bot_option = args.plugin_dir, args.bot_option
    play.strict_bots, play.transcripts = args.strict_bots, args.transcripts
    return cmd_play.run(play)
