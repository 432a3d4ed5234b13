"""``lodam bot NAME``: seat a bot at a table (by default the first open one).

The same as ``lodam join [TABLE] --bot NAME``: the bot plays the whole match and the
process exits 0 once the result is in.
"""

from __future__ import annotations

import argparse

from lodam_p2p.cli.cmd_join import join_as
from lodam_p2p.cli.netrun import add_common, add_session_options


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bot``."""
    parser = sub.add_parser("bot", help="seat a bot at a hosted table", description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name", help="the bot (see 'lodam bots')")
    parser.add_argument("--table", help="the table (default: the first open one)")
    add_common(parser)
    add_session_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Join and play until the match is over."""
    return join_as(args, args.name, args.table)
