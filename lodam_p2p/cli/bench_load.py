"""``lodam bench load``: many tables of bots at once on one broker — do they all finish?

``--tables N`` tables of ``--seats`` bots each start together on one broker (``--broker
URL``, else a private mosquitto when the binary is installed, else the embedded amqtt
broker in this process), or on a cluster: given several brokers (``--broker
URL1,URL2,…``), the seats are spread round-robin over them, each seat keeping the
others to move to. Every table is a whole match played by real peers over MQTT —
a host watcher and one session per seat, each with its own connection, keys and proofs
— shared out over ``--workers`` processes (default: one per core) so that the machine's
cores all work. Printed (``--json``: one JSON object):

- ``finished`` — tables whose match ended with a result;
- ``blames`` — blames in those results, all tables together (an honest bot is never
  blamed, so anything above 0 means a seat was found silent: too slow under load);
  each is printed on stderr with its table;
- ``decision_latency_ms_p95`` — within a deal, the time from one decision at a table to
  the next: the action's trip through the broker, its checks by every peer, and the
  next bot's choice (95th percentile over every table);
- ``stalled`` — tables ended by the watchdog: no session of the table moved (phase,
  hand or step) for ``--stall`` seconds, longer than any wait of the protocol; the
  reason (where every session stood, and what it waited for) is printed on stderr;
- ``nodes`` — the messages each broker carried (received and published by the seats
  connected to it), by URL;
- ``cpu_s`` — processor time of this command and its workers (and of the private broker;
  an outside broker's is not counted); ``wall_s`` — the whole run.

While the tables play, each one that ends says so on stderr (``table T finished
after S s``), so that a long run shows how far it got, even when it is stopped.
The exit status is 0 when every table finished with no blame, else 1; Ctrl-C stops
the workers and the broker this started and exits with 130.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.broker_list import add_broker
from lodam_p2p.cli.netrun import bot_seats, check_broker, parse_options
from lodam_p2p.cli.workers import Worker, gather, start_all, stop
from lodam_p2p.games.lodam import Action, PlayerView
from lodam_p2p.player import DealEnded, Player, TableEvent
from lodam_p2p.session import Timing
from lodam_p2p.session.link import Connector
from lodam_p2p.session.runner import Session
from lodam_p2p.session.table import _run_all, _sessions, mqtt_connector, table_game
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.transport import PresenceSpec, Transport
from lodam_p2p.transport.broker import LOOPBACK, EmbeddedBroker, ListenAddress, private_mosquitto
from lodam_p2p.transport.brokers import rotated

#: The exit status of an interrupted run (128 + SIGINT, as a shell reports it).
EXIT_INTERRUPTED = 130


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench load``."""
    parser = sub.add_parser("load", help="many tables of bots at once on one broker",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=20, help="tables at once (default 20)")
    parser.add_argument("--seats", type=int, default=5, help="seats a table (3-10, default 5)")
    parser.add_argument("--bot", default="random", help="the bot at every seat (random)")
    add_broker(parser, help="an MQTT broker to use (default: a private mosquitto, else "
               "the embedded broker); several, a cluster's nodes, comma separated or "
               "repeated: the seats are spread round-robin over them")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes the tables are shared over (default: one a core)")
    parser.add_argument("--timeout", type=float, default=Timing().timeout_s, metavar="S",
                        help="a protocol step or decision (default: as lodam host)")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="a rules option (repeatable)")
    parser.add_argument("--stall", type=float, default=None, metavar="S",
                        help="end a table nobody at which moved for S seconds (default: "
                             "four times --timeout, at least 120)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play every table at once and print the figures."""
    if not 1 <= args.tables <= 200:
        raise CliError("--tables must be between 1 and 200")
    if not 3 <= args.seats <= 10:
        raise CliError("--seats must be between 3 and 10")
    if args.workers < 1:
        raise CliError("--workers must be at least 1")
    if not 0 < args.timeout <= 3600:
        raise CliError("--timeout must be above 0 and at most 3600 seconds")
    if args.stall is not None and not 0 < args.stall <= 86400:
        raise CliError("--stall must be above 0 and at most 86400 seconds")
    check_broker(args.broker)
    parse_options(args.option)  # a clean error for a bad option, before any process
    bot_seats([args.bot], None)  # likewise for an unknown bot
    figures = measure(args)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['finished']} of {figures['tables']} tables finished, "
              f"{figures['blames']} blames, {figures['stalled']} stalled; decision latency p95 "
              f"{figures['decision_latency_ms_p95']} ms; cpu {figures['cpu_s']} s, "
              f"wall {figures['wall_s']} s")
        print(_per_node(figures["nodes"]))
    return 0 if figures["finished"] == args.tables and figures["blames"] == 0 else 1


def measure(args: argparse.Namespace) -> dict[str, object]:
    """Run the tables and gather the figures."""
    started = time.monotonic()
    with _broker(args.broker) as url:
        reports = _run_workers(url, args)
    wall = time.monotonic() - started
    cpu = sum(_cpu(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    for report in reports:
        if report.error:
            print(f"lodam: table {report.table}: {report.error}", file=sys.stderr)
        for blame in report.blames:
            print(f"lodam: table {report.table}: blamed {blame}", file=sys.stderr)
    gaps = sorted(gap for report in reports for gap in report.gaps)
    return {
        "tables": args.tables,
        "finished": sum(report.finished for report in reports),
        "blames": sum(len(report.blames) for report in reports),
        "stalled": sum(report.stalled for report in reports),
        "nodes": dict(sorted(sum((Counter(report.nodes) for report in reports),
                                 Counter()).items())),
        "decision_latency_ms_p95": round(_percentile(gaps, 0.95) * 1000, 1),
        "cpu_s": round(cpu, 1),
        "wall_s": round(wall, 1),
    }


@contextlib.contextmanager
def _broker(choice: str | None) -> Iterator[str]:
    """The URL of the broker every table uses."""
    if choice is not None:
        yield choice
        return
    with private_mosquitto() as url:
        if url is not None:
            yield url
            return
    with _embedded() as url:
        yield url


@contextlib.contextmanager
def _embedded() -> Iterator[str]:
    """The embedded broker, in a thread of this process, while the workers run."""
    import threading  # noqa: PLC0415 - only when no mosquitto is installed

    ready: list[str] = []
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def serve() -> None:
        async with EmbeddedBroker(ListenAddress(LOOPBACK, 0)) as broker:
            ready.append(broker.url)
            await stop.wait()

    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),), daemon=True)
    thread.start()
    while not ready and thread.is_alive():
        time.sleep(0.01)
    if not ready:
        raise CliError("the embedded broker did not start", 1)
    try:
        yield ready[0]
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        if not thread.is_alive():
            loop.close()


@dataclass(frozen=True)
class LoadPlan:
    """What every table plays (sent to each worker process)."""

    url: str
    seats: int
    bot: str
    option_items: tuple[str, ...]
    timing: Timing
    stall_s: float  #: a table nobody at which moved for this long is ended (stalled)


@dataclass
class TableReport:
    """What one table came to (sent back from a worker process)."""

    table: str
    finished: bool = False
    blames: list[str] = field(default_factory=list)
    gaps: list[float] = field(default_factory=list)
    error: str = ""
    stalled: bool = False
    #: messages carried by each broker, by URL (see :func:`_spread`)
    nodes: dict[str, int] = field(default_factory=dict)


def _run_workers(url: str, args: argparse.Namespace) -> list[TableReport]:
    """Share the tables out over the worker processes and wait for all of them.

    Ctrl-C stops every worker this started (by its PID) and ends the command with
    status 130 and one line: the workers start with SIGINT ignored (:mod:`.workers`),
    so an interrupt reaches this process alone and none of them dies half-way with a
    traceback of its own, nor leaves a pool's shutdown waiting for its tables."""
    tables = [f"load-{os.getpid()}-{i + 1}" for i in range(args.tables)]
    workers = min(args.workers, len(tables))
    shares = [tables[i::workers] for i in range(workers)]
    stall = args.stall if args.stall is not None else max(120.0, 4 * args.timeout)
    plan = LoadPlan(url, args.seats, args.bot, tuple(args.option),
                    Timing(timeout_s=args.timeout, linger_s=2.0, lobby_s=120.0), stall)
    started: list[Worker] = []
    try:
        start_all(_work, [(plan, share) for share in shares], "lodam bench load", started)
        pids = " ".join(str(worker.process.pid) for worker in started)
        print(f"lodam: bench load: {len(tables)} tables on {url}, {len(started)} worker "
              f"processes (pids {pids})", file=sys.stderr, flush=True)
        answers = gather(started)
    except KeyboardInterrupt:
        stopped = stop(started)
        raise CliError(f"bench load interrupted: stopped {stopped} of its {len(started)} "
                       "worker processes", EXIT_INTERRUPTED) from None
    finally:
        stop(started)
    return [report for worker, share, answer in zip(started, shares, answers, strict=True)
            for report in (answer if answer is not None else _lost(worker, share))]


def _work(plan: LoadPlan, tables: list[str], reply: Connection) -> None:
    """The body of a worker process: play ``tables``, send the reports back."""
    reply.send(play_tables(plan, tables))
    reply.close()


def _lost(worker: Worker, tables: list[str]) -> list[TableReport]:
    """The reports of tables whose worker ended without sending any."""
    return [TableReport(table, error=f"its worker process {worker.process.pid} ended "
                        f"without a report (exit status {worker.process.exitcode})")
            for table in tables]


def play_tables(plan: LoadPlan, tables: list[str]) -> list[TableReport]:
    """A worker: play ``tables`` at once as ``plan`` says; one report per table."""
    async def all_tables() -> list[TableReport]:
        return list(await asyncio.gather(*(_play_one(plan, table) for table in tables)))

    return asyncio.run(all_tables())


async def _play_one(plan: LoadPlan, table: str) -> TableReport:
    report = TableReport(table)
    began = time.monotonic()
    clock = TableClock(report.gaps)
    seats = [SeatPlan(seat.name, Timed(seat.player, clock), seat.kind)
             for seat in bot_seats([plan.bot] * plan.seats, None)]
    options = parse_options(plan.option_items)
    first = (int(table.rsplit("-", 1)[-1]) - 1) * (len(seats) + 1)  # the host counts too
    try:
        sessions = _sessions(table, options, len(seats), seats,
                             connect=_spread(plan.url, first), seed=None, timing=plan.timing,
                             spectator=None, game=table_game("lodam", len(seats), options))
        try:
            outcome = await _watched(_run_all(sessions), sessions, plan.stall_s, report)
        finally:
            report.nodes = _carried(sessions)
    except Exception as err:  # a table that fails is counted, not fatal to the others
        report.error = report.error or f"{type(err).__name__}: {err}"
        return report
    report.finished, report.blames = True, list(outcome[0].blames)
    print(f"lodam: bench load: table {table} finished after "
          f"{time.monotonic() - began:.0f} s", file=sys.stderr, flush=True)
    return report


def _spread(urls: str, first: int) -> Connector:
    """Connections spread round-robin over the brokers of ``urls``: the ``k``-th made
    starts at node ``first + k``, with the others after it to move to."""
    turns = itertools.count(first)

    def connect(presence: PresenceSpec) -> Transport:
        return mqtt_connector(rotated(urls, next(turns)))(presence)

    return connect


def _carried(sessions: list[Session]) -> dict[str, int]:
    """The messages each broker carried for ``sessions`` (their MQTT transports' counts)."""
    total: Counter[str] = Counter()
    for session in sessions:
        total.update(getattr(session.link.transport, "counts", {}))
    return dict(total)


def _per_node(nodes: object) -> str:
    """The per-node line of the plain report."""
    counts = nodes if isinstance(nodes, dict) else {}
    return "messages by broker: " + (", ".join(f"{url} {n}" for url, n in counts.items())
                                     or "none counted")


async def _watched(run: Coroutine[Any, Any, list[MatchOutcome]], sessions: list[Session],
                   stall_s: float, report: TableReport) -> list[MatchOutcome]:
    """Run the table; end it when no session of it moved for ``stall_s`` seconds,
    with where each one stood as the report's error."""
    task = asyncio.ensure_future(run)
    loop = asyncio.get_running_loop()
    seen, since = _positions(sessions), loop.time()
    while not task.done():
        await asyncio.wait([task], timeout=min(5.0, stall_s))
        now, positions = loop.time(), _positions(sessions)
        if positions != seen:
            seen, since = positions, now
        elif now - since >= stall_s and not task.done():
            report.stalled = True
            report.error = (f"stalled: nothing moved for {now - since:.0f} s; "
                            + "; ".join(_standing(s) for s in sessions))
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            raise TimeoutError(report.error)
    return task.result()


def _positions(sessions: list[Session]) -> tuple[object, ...]:
    """Where each session is: phase, hand, step, and how far the deal's keys, shuffles
    and deal shares are (every move changes one of them)."""
    return tuple((s.phase, s.hand_no, getattr(s.hand, "step", None), _dealing(s.hand))
                 for s in sessions)


def _dealing(hand: object) -> tuple[object, ...]:
    """How far the fair deal of ``hand`` is (empty when there is none)."""
    fair = getattr(hand, "fair", None)
    record = getattr(fair, "record", None)
    if fair is None or record is None:
        return ()
    with contextlib.suppress(Exception):  # a progress mark only: never fail on it
        return (fair.phase, len(record.keys), record.next_shuffler(), len(record.dealt),
                len(record.revealed))
    return (fair.phase,)


def _standing(session: Session) -> str:
    """One session's position and what it waits for, for a stalled table's reason."""
    who = "host" if session.seat is None else f"seat {session.seat}"
    hand = session.hand
    awaited = fair = None
    with contextlib.suppress(Exception):  # a diagnosis only: never fail on it
        awaited = hand.awaited() if hand is not None else None
        waiting = hand.fair.awaited() if hand is not None else None
        fair = (waiting[0], waiting[2]) if waiting is not None else None
    return (f"{who}: {session.phase.value} hand {session.hand_no} step "
            f"{getattr(hand, 'step', '-')} awaits {awaited} fair {fair} "
            f"votes {sorted(session.votes)} away {sorted(session.away)} "
            f"queued {sum(len(q) for q in session.queues.values())}")


class TableClock:
    """The gaps between one decision at a table and the next, within a deal."""

    def __init__(self, gaps: list[float]) -> None:
        self.gaps = gaps
        self.last: float | None = None  #: when the last decision was made (None: new deal)

    def decided(self) -> None:
        """A decision was made now."""
        now = time.perf_counter()
        if self.last is not None:
            self.gaps.append(now - self.last)
        self.last = now

    def deal_over(self) -> None:
        """The next decision starts a new deal (after a shuffle): not a gap."""
        self.last = None


class Timed:
    """A player that tells the table's clock when it decides."""

    def __init__(self, player: Player, clock: TableClock) -> None:
        self.player, self.clock = player, clock

    def notify(self, event: TableEvent) -> None:
        """Pass the event on; a deal's end resets the clock."""
        if isinstance(event, DealEnded):
            self.clock.deal_over()
        self.player.notify(event)

    async def decide(self, view: PlayerView) -> Action:
        """The player's decision, timed."""
        action: Action = await self.player.decide(view)
        self.clock.decided()
        return action


def _percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of sorted ``values`` (nearest rank), 0 when there are none."""
    if not values:
        return 0.0
    return values[min(len(values) - 1, max(0, round(share * len(values)) - 1))]


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime
