"""``lodam join``: take a seat at a table hosted elsewhere.

``TABLE`` may be left out: the first open table announced on the broker is joined.
``--bot NAME`` seats a bot; a person's seat is played in the terminal client (``lodam
play`` joins tables from its lobby). The spectator log is printed as the match goes;
with ``--json`` a finished match prints one JSON line.
"""

from __future__ import annotations

import argparse

from lodam_p2p.cli import CliError
from lodam_p2p.session import join_table
from lodam_p2p.session.runner import (
    add_common,
    bot_seats,
    check_broker,
    check_table,
    run_match,
    spectator_for,
    timing_for,
)
from lodam_p2p.tableplan import MatchOutcome

#: The broker ``lodam host`` starts by default.
DEFAULT_BROKER = "mqtt://127.0.0.1:1883"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam join``."""
    parser = sub.add_parser("join", help="take a seat at a hosted table",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", nargs="?", help="the table (default: the first open one)")
    parser.add_argument("--bot", metavar="NAME", help="seat this bot")
    add_common(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Join and play until the match is over."""
    if args.bot is None:
        raise CliError("a person's seat is played in the terminal client: use 'lodam play' "
                       "(its lobby joins tables), or seat a bot with --bot NAME")
    return join_as(args, args.bot, args.table)


def join_as(args: argparse.Namespace, bot: str, table: str | None) -> int:
    """Join ``table`` with the bot ``bot`` (shared with ``lodam bot``)."""
    name = check_table(table) if table is not None else None
    broker = check_broker(args.broker) or DEFAULT_BROKER
    seat = bot_seats([bot], args.seed)[0]
    timing = timing_for(args)

    async def match() -> MatchOutcome:
        return await join_table(table=name, seat=seat, broker_url=broker, timing=timing,
                                spectator=spectator_for(args, name or "?"))

    return run_match(args, match)
