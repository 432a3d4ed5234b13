"""``lodam adversary KIND``: seat a malicious peer that mounts one attack, for testing.

It takes a seat like ``lodam bot`` (``--table``, or the first open one), plays like the
random bot and mounts attack ``KIND`` at its first chance. ``--list`` prints the kinds,
one a line (with ``-v``, each with what it does). At the end it prints one JSON line
(with ``--json`` only that line is on stdout)::

    {"kind": K, "seat": s, "attempted": bool, "reason": str or null, "learned": [...],
     "result": {...} or null}

``reason`` says why an attack that was not mounted could not be (null once it was);
``learned`` lists only what the attack actually recovered beyond its own view, or won
from the table (a hand voided, a seat put out, a rank kept); ``result`` is the table's
result as this seat saw it. The attacks live in :mod:`lodam_p2p.redteam`. A table working as
protocol/SPEC.md says refuses every attack or puts the attacker out on the evidence.

The kinds named ``broker-…`` are no seat but a hostile broker (:mod:`lodam_p2p.redteam.broker`):
``lodam adversary broker-KIND --listen HOST:PORT --upstream mqtt://…`` relays the seats
that use ``HOST:PORT`` as their broker to the real one and misbehaves; on SIGTERM it
prints one JSON line (``attempted``, ``learned``, and for a censor its ``victim``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
import tempfile
from functools import partial
from pathlib import Path

from lodam_p2p.cli import CliError
from lodam_p2p.cli.campaign import GAME_OPTIONS, RUN_TIMEOUT_S, Run, as_json, campaign, line
from lodam_p2p.cli.cmd_join import DEFAULT_BROKER
from lodam_p2p.cli.netrun import (
    EXIT_FAILED,
    add_common,
    add_session_options,
    bot_seats,
    check_broker,
    check_table,
    journal_for,
    spectator_for,
    timing_for,
)
from lodam_p2p.redteam.attacks import ATTACKS
from lodam_p2p.redteam.broker import KINDS as BROKER_KINDS
from lodam_p2p.redteam.broker import run_relay
from lodam_p2p.redteam.seat import Adversary, attack_named
from lodam_p2p.session import SessionError, join_table
from lodam_p2p.tableplan import SeatPlan
from lodam_p2p.transport import ConnectError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam adversary``."""
    parser = sub.add_parser("adversary", help="seat a malicious peer that mounts an attack",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", nargs="?", help="the attack (see --list)")
    parser.add_argument("--list", action="store_true", help="list the attacks and exit")
    parser.add_argument("--table", help="the table (default: the first open one)")
    parser.add_argument("--listen", help="a broker kind: HOST:PORT the seats connect to")
    parser.add_argument("--upstream", help="a broker kind: the real broker's URL")
    parser.add_argument("--victim", type=int, help="a broker kind: the seat it singles out")
    parser.add_argument("--will-after", type=int, metavar="N",
                        help="broker-fire-will: fire the victim's will after every N of its "
                             "frames (default: any seat's, now and then)")
    parser.add_argument("--campaign", action="store_true",
                        help="run every seat kind (or --kinds) against a four-seat table of "
                             "each game (--games), each seat its own process, and print a "
                             "verdict a run (see lodam_p2p/cli/campaign.py)")
    parser.add_argument("--kinds", help="--campaign: the kinds, comma-separated (default: "
                                        "every seat kind)")
    parser.add_argument("--games", default="lodam,lorum",
                        help="--campaign: the games, comma-separated (default: lodam,lorum)")
    parser.add_argument("--run-timeout", type=float, default=RUN_TIMEOUT_S, metavar="S",
                        help="--campaign: stop a run after S seconds (default: %(default)s)")
    parser.add_argument("--logs", type=Path, metavar="DIR",
                        help="--campaign: keep every process's log under DIR (default: a "
                             "temporary directory, removed)")
    add_common(parser)
    add_session_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Mount the attack over one match, then print the report."""
    if args.list:
        for kind, kind_type in ATTACKS.items():
            print(f"{kind}\t{kind_type.summary}" if args.verbose else kind)
        for kind, summary in BROKER_KINDS.items():
            print(f"{kind}\t{summary}" if args.verbose else kind)
        return 0
    if args.campaign:
        return run_campaign(args)
    if args.kind is None:
        raise CliError("name an attack (see 'lodam adversary --list')")
    if args.kind in BROKER_KINDS:
        if not (args.listen and args.upstream):
            raise CliError(f"{args.kind} needs --listen HOST:PORT and --upstream URL")
        try:
            return run_relay(args.kind, args.listen, args.upstream, args.victim, args.seed,
                             will_after=args.will_after)
        except ValueError as err:
            raise CliError(str(err)) from None
    if args.kind not in ATTACKS:
        raise CliError(f"no attack {args.kind!r} (see 'lodam adversary --list')")
    table = check_table(args.table) if args.table is not None else None
    broker = check_broker(args.broker) or DEFAULT_BROKER
    timing = timing_for(args)
    attack = attack_named(args.kind)
    bot = bot_seats(["random"], args.seed)[0]
    seat = SeatPlan(f"{args.kind}", bot.player, attack.seat_kind)
    made: list[Adversary] = []

    def make(*a: object, **kw: object) -> Adversary:
        made.append(Adversary(*a, attack=attack, **kw))
        return made[0]

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="lodam: %(message)s", stream=sys.stderr)
    # the seat keeps a journal only where --state-dir says: an attacker's slot is no
    # person's to come back to
    journal = journal_for(args, table) if args.state_dir is not None else None
    try:
        asyncio.run(join_table(table=table, seat=seat, broker_url=broker, timing=timing,
                               spectator=spectator_for(args, table or "?"),
                               make=partial(make), transcripts=args.transcripts,
                               journal=journal))
    except (SessionError, ConnectError) as err:
        if not made:
            raise CliError(str(err), EXIT_FAILED) from None
        print(f"lodam: {err}", file=sys.stderr)
    finally:
        if journal is not None:
            journal.close()
    report = made[0].report() if made else {"kind": args.kind, "seat": None,
                                             "attempted": False, "reason": "never seated",
                                             "learned": [], "result": None}
    print(json.dumps(report), flush=True)
    return 0


def _stop(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def run_campaign(args: argparse.Namespace) -> int:
    """``--campaign``: every chosen seat kind against each chosen game; exit 1 when a run
    failed or timed out."""
    kinds = [k for k in (args.kinds or ",".join(ATTACKS)).split(",") if k]
    games = [g for g in args.games.split(",") if g]
    unknown = [k for k in kinds if k not in ATTACKS]
    if unknown:
        raise CliError(f"no seat kind {', '.join(unknown)} (see 'lodam adversary --list'; "
                       "the broker kinds are relays, not seats)")
    if bad := [g for g in games if g not in GAME_OPTIONS]:
        raise CliError(f"no game {', '.join(bad)} (one of {', '.join(GAME_OPTIONS)})")
    if args.run_timeout <= 0:
        raise CliError("--run-timeout must be positive")
    broker = check_broker(args.broker) if args.broker else None

    def each(run: Run) -> None:
        print(as_json(run) if args.json else line(run), flush=True)

    # a SIGTERM ends the campaign as Ctrl-C does: each run's processes are stopped first
    signal.signal(signal.SIGTERM, _stop)
    with tempfile.TemporaryDirectory(prefix="lodam-campaign-") as scratch:
        logs = args.logs or Path(scratch)
        runs = asyncio.run(campaign(kinds, games, broker, logs, args.run_timeout, each=each))
    bad_runs = [run for run in runs if run.verdict in ("FAILED", "timeout")]
    if not args.json:
        held = sum(run.verdict == "held" for run in runs)
        na = sum(run.verdict == "n/a" for run in runs)
        print(f"{len(runs)} runs: {held} held, {na} not applicable, {len(bad_runs)} failed",
              flush=True)
    return 1 if bad_runs else 0
