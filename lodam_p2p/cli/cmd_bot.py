"""``lodam bot NAME``: seat a bot at a table (by default the first open one).

The same as ``lodam join [TABLE] --bot NAME``: the bot plays the whole match and the
process exits 0 once the result is in. Every error of the bot is a warning naming it
(``-v``: with its traceback) and an entry of ``bot_errors`` in the ``--json`` line;
by default the fallback bot plays on, with ``--strict-bots`` the seat forfeits at the
first error. A seat that forfeits or that the table votes out exits 1; a bot that cannot
be loaded or made is one line, exit 2.
"""

from __future__ import annotations

import argparse

from lodam_p2p.cli.cmd_bots import add_bot_arguments
from lodam_p2p.cli.cmd_join import join_as
from lodam_p2p.cli.finding import add_wait
from lodam_p2p.cli.netrun import add_common, add_session_options


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bot``."""
    parser = sub.add_parser("bot", help="seat a bot at a hosted table", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", help="the bot (see 'lodam bots')")
    parser.add_argument("--table", help="the table (default: the first open one)")
    add_common(parser)
    add_session_options(parser)
    add_bot_arguments(parser)
    add_wait(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Join and play until the match is over."""
    return join_as(args, args.name, args.table)
