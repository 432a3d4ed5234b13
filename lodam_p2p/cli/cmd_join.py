"""``lodam join``: take a seat at a table hosted elsewhere.

You sit in the full-screen terminal client (the same as ``lodam play``), at the screen of
the game the table announces (Lodam or Lorum); without
``TABLE`` its lobby lists the tables found on the LAN and on the broker. ``--bot NAME``
seats a bot instead, headless: without ``TABLE`` it joins the first open table
announced on the broker, prints the spectator log as the match goes, and with
``--json`` a finished match prints one JSON line. The seat plays the table's game, as
its announcement says; a bot that does not play it is refused.

``TABLE`` may carry the host's fingerprint as ``lodam tables`` shows it (``oak#7f3a``):
the seat then joins that host's table only. Without it, the seat joins the first open
table of that name it hears, and says so when another host announces the same name.

A table not there yet is waited for, up to ``--wait`` seconds: without ``--broker`` it
is looked for by name (:mod:`lodam_p2p.cli.finding`); with ``--broker`` its announcement
is waited for on that broker (a host that starts later, a broker not up yet). In the
terminal client both waits are a screen that says what is looked for and where, and
that Esc leaves; a bot's seat says it in one line on stderr ("waiting for table oak on
URL…"), and again only when the reason changes. Then the seat stops, exit status 1,
with one line naming the table and where it was looked for. A bot's seat at a table
announced but full or playing a match, or without ``TABLE`` on a broker with no open
table, waits the same way for a seat ("table 'oak' is full: waiting for a seat…"), up
to ``--wait`` seconds again. A seat coming back to its match (its journal holds one at
the table) does not wait for the announcement.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from types import SimpleNamespace

from lodam_p2p.cli import CliError
from lodam_p2p.cli.bot_flags import SingleLineup
from lodam_p2p.cli.broker_list import with_announced
from lodam_p2p.cli.cmd_bots import add_bot_arguments, bot_setup
from lodam_p2p.cli.finding import (
    SeatWait,
    TableNotFound,
    add_wait,
    find_broker,
    wait_on_broker,
)
from lodam_p2p.cli.netrun import (
    EXIT_FAILED,
    add_common,
    add_person,
    add_session_options,
    bot_plays,
    bot_seats,
    check_broker,
    check_table,
    journal_for,
    run_match,
    spectator_for,
    timing_for,
)
from lodam_p2p.session import SessionError, join_table
from lodam_p2p.session.journal import SEAT
from lodam_p2p.session.table import TableWaitOver
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.transport.lobby import split_label

#: The broker ``lodam host`` starts by default.
DEFAULT_BROKER = "mqtt://127.0.0.1:1883"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam join``."""
    parser = sub.add_parser("join", help="take a seat at a hosted table",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", nargs="?", help="the table, as NAME or NAME#FINGERPRINT "
                                                 "(default: the first open one)")
    parser.add_argument("--bot", metavar="NAME", help="seat this bot")
    parser.add_argument("--bots", dest="bot", action=SingleLineup, metavar="NAME",
                        help="the same as --bot (one bot: a lineup of one seat)")
    add_common(parser)
    add_person(parser)
    add_session_options(parser)
    add_bot_arguments(parser)
    add_wait(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Join and play until the match is over."""
    if args.bot is None:
        return join_in_client(args)
    return join_as(args, args.bot, args.table)


def join_in_client(args: argparse.Namespace) -> int:
    """A person's seat: the terminal client, at ``TABLE`` or through the lobby."""
    from lodam_p2p.cli import cmd_play  # noqa: PLC0415 - the client loads only when needed

    play = cmd_play.play_defaults()
    play.seed, play.json, play.timeout = args.seed, args.json, args.timeout
    play.name, play.bot_delay, play.ascii = args.name, args.bot_delay, args.ascii
    play.state_dir, play.option = args.state_dir, args.option
    play.plugin_dir, play.bot_option = args.plugin_dir, args.bot_option
    play.strict_bots, play.transcripts = args.strict_bots, args.transcripts
    broker = check_broker(args.broker)
    if args.table is None:
        play.lobby, play.broker = True, broker
    else:
        play.table = check_label(args.table)
        play.join_row = SimpleNamespace(table=play.table, broker=broker or DEFAULT_BROKER)
        if sys.stdin.isatty() and sys.stdout.isatty():
            found = find_on_screen(play, play.table, args.wait, broker)
            if found is None:
                return 0  # the person left the waiting screen
            play.join_row.broker, play.join_row.game = found
    return cmd_play.run(play)


def find_on_screen(args: argparse.Namespace, label: str, wait_s: float,
                   broker: str | None = None) -> tuple[str, str] | None:
    """In a terminal: the brokers of the table ``label`` and the game it plays, found on
    a waiting screen that says what is looked for and where, and that Esc leaves (None
    then); a one-line error when the table is not found in ``wait_s`` seconds. Without
    ``broker`` the table is found by name (its brokers, :func:`broker_by_name`); with
    it, its announcement is waited for there (a host that starts later)."""
    # the screen (prompt_toolkit) and the search (zeroconf) load only for this
    from lodam_p2p.cli.finding import BrokerWait, Finder  # noqa: PLC0415
    from lodam_p2p.cli.netrun import announced_game, kept_game  # noqa: PLC0415
    from lodam_p2p.session import SessionError  # noqa: PLC0415
    from lodam_p2p.transport import ConnectError  # noqa: PLC0415
    from lodam_p2p.ui.app import no_color_wanted  # noqa: PLC0415
    from lodam_p2p.ui.looking import look_on_screen  # noqa: PLC0415

    async def by_name(say: Callable[[str], None]) -> tuple[str, str]:
        say(f"looking for table {label} by DNS-SD and on this machine's broker")
        found = await Finder(label, wait_s, DEFAULT_BROKER, say=say).find()
        say(f"found table {label} at {found}; reading its announcement")
        game = kept_game(args, label) or await announced_game(
            label, found, lambda why: say(f"{why}: looking again"))
        return found, game

    search = by_name
    if broker is not None:
        kept = kept_game(args, label)
        if kept is not None:  # this seat comes back to its match: no need to look
            return broker, kept
        where: str = broker

        async def on_broker(say: Callable[[str], None]) -> tuple[str, str]:
            say(f"waiting for table {label} on {where}…")
            return where, await BrokerWait(label, where, wait_s, say=say).game()

        search = on_broker
    try:
        return asyncio.run(look_on_screen(search,
                                          title=f"Joining table {label}",
                                          no_color=no_color_wanted()))
    except TableNotFound as err:
        raise CliError(str(err), EXIT_FAILED) from None
    except (SessionError, ConnectError) as err:
        raise CliError(str(err), EXIT_FAILED) from None


def join_as(args: argparse.Namespace, bot: str, table: str | None) -> int:
    """Join ``table`` with the bot ``bot`` (shared with ``lodam bot``)."""
    label = check_label(table) if table is not None else None  # oak or oak#7f3a
    name = split_label(label)[0] if label is not None else None
    broker = check_broker(args.broker)
    setup = bot_setup(args)
    seat = bot_seats([bot], args.seed, game=None, setup=setup, verbose=args.verbose)[0]
    timing = timing_for(args)
    given = broker is not None
    if broker is None:
        broker = DEFAULT_BROKER if label is None else broker_by_name(label, args.wait)
    journal = journal_for(args, name)
    seat_wait = SeatWait(label, broker.split(",")[0], args.wait)

    async def match() -> MatchOutcome:
        cluster = await with_announced(broker, name)  # every node the host announces
        try:
            return await join_table(
                table=label, seat=seat, broker_url=cluster, timing=timing,
                spectator=spectator_for(args, name or "?"), journal=journal,
                accept=lambda found: bot_plays(bot, found.game, setup),
                transcripts=args.transcripts, patience_s=args.wait,
                waiting=seat_wait.waiting)
        except TableWaitOver as err:  # announced, but no seat came free in time
            raise SessionError(seat_wait.gave_up(str(err))) from None

    try:
        if given and label is not None and not journal.resumable(name, SEAT):
            broker_announces(label, broker, args.wait)
        return run_match(args, match, [seat.player])
    finally:
        journal.close()


def broker_by_name(label: str, wait_s: float) -> str:
    """Without ``--broker``: the broker of the table ``label``, found by DNS-SD or on
    this machine's broker, waited for up to ``wait_s`` seconds (a one-line error then)."""
    try:
        return find_broker(label, wait_s, local=DEFAULT_BROKER)
    except TableNotFound as err:
        raise CliError(str(err), EXIT_FAILED) from None


def broker_announces(label: str, broker: str, wait_s: float) -> None:
    """With ``--broker``: wait up to ``wait_s`` seconds for the table ``label`` to be
    announced on ``broker``, saying so on stderr (nothing when it is there at once);
    a one-line error naming the table and the broker then."""
    try:
        wait_on_broker(label, broker, wait_s)
    except TableNotFound as err:
        raise CliError(str(err), EXIT_FAILED) from None


def check_label(text: str) -> str:
    """A table to join as ``lodam tables`` shows it: its name, or its name and the
    host's fingerprint (``oak#7f3a``, at least 4 hex digits); else a one-line error."""
    try:
        name, _pin = split_label(text)
    except ValueError as err:
        raise CliError(str(err)) from None
    check_table(name)
    return text
