"""``lodam arena``: offline matches among bots — no network, no crypto.

Seats rotate so that each bot meets the same deals from every seat: matches come in
groups of one match per rotation of the line-up, sharing one deck stream and first
dealer. Every random draw comes from --seed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from lodam_p2p.arena.config import DEFAULT_MAX_DEALS, ArenaError, build_config
from lodam_p2p.arena.progress import ProgressBar
from lodam_p2p.arena.report import to_json, to_text
from lodam_p2p.arena.runner import EarlyStop, run_arena
from lodam_p2p.bots.api import BotStartError
from lodam_p2p.bots.budget import DEFAULT_BUDGET_S, MARGIN_S
from lodam_p2p.cli import CliError
from lodam_p2p.cli.bot_flags import OneBot
from lodam_p2p.cli.cmd_bots import (
    add_plugin_dir_argument,
    check_table_options,
    load,
    start_error,
)
from lodam_p2p.games import DEFAULT_GAME

_EPILOG = """\
examples:
  lodam arena --bots heuristic,random*3 --matches 1000 --seed 7
  lodam arena --game lodam --bots heuristic,random*3 --option lives=2
  lodam arena --game lorum --bots random*4 --matches 200 --option rounds=2 --json
  lodam arena --game lorum --bots heuristic,random*3 --matches 300
  lodam arena --game lorum --bots ismcts,heuristic*3 --bot-option ismcts.c=0.7
  lodam arena --bots heuristic*5 --option declare_out=true --json
  lodam arena --compare ismcts,heuristic --bots heuristic*3 --matches 400 --jobs 2
  lodam arena --bots ismcts,heuristic*3 --bot-option ismcts.time_ms=50
  lodam arena --compare heuristic@careful,heuristic --bots random*3 \
              --bot-option heuristic@careful.risk=3

Each decision has a time budget: the bot type's own (default {budget:g} s) or --budget
for every bot; a decision over it by more than {margin:g} s is an over-budget error, its
move played by the fallback. The report gives each bot's decision-time percentiles.
A bot that raises, answers wrongly or is over budget is an error of its kind, listed
(every one in --json's bot_errors); -v prints each one's traceback.

NAME@LABEL seats bot NAME under its own label, with its own --bot-option NAME@LABEL.k=v,
so one bot can meet (or be compared with) itself under other options.

--compare A,B adds one seat to the line-up of --bots and plays every match twice on
the same deals, with A and then B in that seat; it reports win(A) - win(B) with a 95%
interval. --matches then counts pairs. Matches are played in whole rotation groups
(one match per seat), so the count is rounded up to a multiple of the seats.

A match is the game's match: in Lodam until one player is left holding counters, in
Lorum one round (--option rounds=N for more). Its winners are the game's (Lorum: the
lowest total, or the most beans); tied winners share the win."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam arena``."""
    parser = sub.add_parser(
        "arena",
        help="offline matches among bots, with win shares and intervals",
        description=__doc__,
        epilog=_EPILOG.format(budget=DEFAULT_BUDGET_S, margin=MARGIN_S),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--game", default=DEFAULT_GAME, metavar="NAME",
        help=f"the game to play (default {DEFAULT_GAME}; 'lodam bots' lists the games)")
    add("--bots", default=None, metavar="LINEUP",
        help="one bot per seat, comma separated; NAME*K fills K seats, NAME@LABEL labels one "
             "(the game's seat range)")
    add("--bot", dest="bots", action=OneBot, metavar="NAME",
        help="one bot for one seat (repeatable; the same as adding NAME to --bots)")
    add("--matches", type=int, default=100, metavar="N", help="matches to play (default 100)")
    add("--seed", type=int, default=1, help="seed of every deck, first dealer and bot (default 1)")
    add("--option", action="append", default=[], metavar="K=V",
        help="table option of the game (Lodam: docs/rules-lodam.md, e.g. declare_out=true; "
             "Lorum: docs/rules-lorum.md, e.g. rounds=2; lodam rules show-options --game NAME "
             "lists them) (repeatable)")
    add("--bot-option", action="append", default=[], metavar="NAME.KEY=VALUE",
        help="option for every seat running bot NAME, e.g. ismcts.time_ms=50 (repeatable)")
    add("--compare", metavar="A,B", help="paired comparison of bots A and B in one extra seat")
    add("--early-stop", action="store_true",
        help="with --compare: stop once the 99%% interval of the difference excludes 0")
    add("--jobs", type=int, default=1, metavar="N",
        help="worker processes (results are identical for any N; default 1)")
    add("--max-deals", type=int, default=DEFAULT_MAX_DEALS, metavar="N",
        help=f"stop a match after N deals and count it unfinished (default {DEFAULT_MAX_DEALS})")
    add("--budget", type=float, default=None, metavar="SECONDS",
        help=f"thinking time per decision for every bot (default: each type's own, else "
             f"{DEFAULT_BUDGET_S:g}); over it by {MARGIN_S:g} s is an over-budget error")
    add("--json", action="store_true", help="print one JSON object instead of a table")
    add("-v", "--verbose", action="store_true",
        help="print the traceback of every bot error and of a bot that cannot start")
    add_plugin_dir_argument(parser)
    parser.set_defaults(run=run)

    def one_line_error(message: str) -> NoReturn:
        print(f"lodam arena: {message}", file=sys.stderr)
        raise SystemExit(2)

    parser.error = one_line_error  # type: ignore[method-assign]


def run(args: argparse.Namespace) -> int:
    """Play the matches and print the figures."""
    if args.bots is None:
        raise CliError("name the bots: --bots LINEUP (heuristic,random*3) or --bot NAME, "
                       "once per seat")
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, got {args.jobs}")
    if args.early_stop and not args.compare:
        raise CliError("--early-stop needs --compare A,B")
    check_table_options(args.option)
    try:
        config = build_config(
            args.bots, args.matches, args.seed,
            options=args.option, bot_options=args.bot_option, compare=args.compare,
            max_deals=args.max_deals, plugin_dirs=args.plugin_dir, game=args.game,
            budget_s=args.budget,
        )
    except ArenaError as err:
        raise CliError(str(err)) from None
    registry = load(args.plugin_dir)
    bar = ProgressBar()
    try:
        result = run_arena(
            config, registry, jobs=args.jobs, progress=bar,
            early_stop=EarlyStop() if args.early_stop else None,
        )
    except ArenaError as err:
        raise CliError(str(err)) from None
    except BotStartError as err:
        raise start_error(err, args.verbose) from None
    finally:
        bar.close()
    if args.verbose:
        for record in result.records:
            for failure in record.failures:
                print(f"lodam arena: {failure.message}\n{failure.trace}".rstrip(),
                      file=sys.stderr)
    rate = result.matches / result.seconds if result.seconds else 0.0
    print(f"{result.matches} matches in {result.seconds:.1f} s ({rate:.1f} matches/s)",
          file=sys.stderr)
    print(json.dumps(to_json(result, timings=True)) if args.json else to_text(result))
    return 0
