"""``lodam bench net``: a whole match of bot peers, each its own OS process, over a broker.

The table's host runs here (a watcher that keeps the lobby and follows every hand: it
checks the deal's and the reveals' shares and the transfers' proofs and runs every
audit as a seat does, and checks proofs of shuffle when a seat claims a cheat or a card
it shows rests on one, SPEC.md section 12); each seat is a ``lodam bot`` process of its
own, as at a LAN party. Bots answer at once (no think time). Measured:

- ``shuffle_deal_ms_median`` — per hand, the time from the hand's start (fresh keys)
  until every seat's cards are dealt: keys, the joint shuffle, every deal share checked;
  the median over the match's hands;
- ``match_s`` — the whole match, from the start (the seat list complete) to the result;
- ``bytes_per_hand`` — everything the peers published (frames, heartbeats, resends),
  as received by the host, per hand;
- ``remasks`` — the re-masks of the audited hands (two per exchange, each a proof of
  shuffle under its trader's key that every peer checks, and nobody answers), which
  with bots that trade at random is most of the work of a hand;
- ``cpu_s`` — user and system CPU of this process, the bots and the private broker,
  from the match's start (before the broker) to its end: on a shared machine a
  steadier figure than the wall clock;
- ``us_per_scalar_mult`` — the CPU time of one libsecp256k1 multiplication, measured
  just before and just after the match (the mean): the machine's speed at the time,
  as ``bench deal`` reports it, to compare runs on different days by.

``--game lorum`` measures a Lorum round instead (4 seats: 32 deals; 3 seats: 24).

One match is one sample: its length (deals, re-masks) follows the cards and the bots'
trades, and a shared machine's speed changes from minute to minute. ``--matches N``
plays N matches one after another, each as a run of its own (fresh broker, processes
and keys), prints each one's figures and then their medians, with the fastest and the
slowest match (``match_s_min``, ``match_s_max``).

Given several brokers, a cluster's nodes (``--broker URL1,URL2,…``), the host and the
seats are spread round-robin over them (the host on the first, seat ``k`` on node
``k + 1``), each keeping the other nodes to move to, and the match also reports
``nodes``: for each node, the seats connected to it and the messages the host's own
connection carried through it.

Without ``--broker`` a private mosquitto is started on an ephemeral loopback port if the
binary is installed (with ``set_tcp_nodelay true``: small messages must not wait for
delayed acknowledgements — set it in your own mosquitto.conf too), else the embedded
amqtt broker; ``--broker embedded`` measures amqtt, run in this process (``lodam
host`` runs the same broker as a process of its own).

The cost of a LAN: ``--delay-ms MS[,JITTER]`` puts a relay between every peer (the host
included) and the broker that holds each read, in each direction, MS milliseconds plus
a uniform draw from 0 to JITTER, in order (:mod:`lodam_p2p.cli.relay`). Through the
relay the match also reports:

- ``round_trips_per_deal`` — the sequential network round trips of the match per deal:
  the longest chain of DATA frames in which each was sent by a seat after it had read
  the one before from another seat (its PUBACK for it came first on its connection),
  counted by the relay from the peers' own connections, divided by the deals. A
  frame's seat sending it after its own earlier frames costs no round trip; heartbeats,
  resend requests, presence and the lobby do not count. Each such round trip costs
  twice the relay's delay (seat to broker, broker to seat) on top of the direct run.
- ``turns_per_deal`` — how many of those round trips were the game's own turns (a
  seat's decision sent after it saw the one before: a card, an offer, an answer, a
  swallow), which no protocol can overlap, and ``protocol_round_trips_per_deal`` the
  rest (keys, shuffles, deal shares, the talon's top, an exchange's outcome, the audit
  openings, the lobby and the lot). With bots that answer at once the turns set the
  floor of what a LAN costs: see docs/lan-party.md, "What latency costs".
- ``delay_ms`` — the delay, as given.

``--side-by-side`` (with ``--delay-ms``) plays each match twice in turn, directly and
through the relay, and ends with the medians of each and their ratio per deal
(``delayed_over_direct``): the two measured side by side on the same machine.
Every figure also gives ``deal_s``, the match's time per deal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

from lodam_p2p.cli import CliError
from lodam_p2p.cli.bench_deal import us_per_mult
from lodam_p2p.cli.broker_list import add_broker
from lodam_p2p.cli.netrun import add_game, bot_seats, check_broker, game_for, parse_options
from lodam_p2p.cli.relay import Delay, DelayRelay
from lodam_p2p.games import GameError
from lodam_p2p.session import Session, SessionError, Timing
from lodam_p2p.session.keys import new_identity
from lodam_p2p.session.link import Link
from lodam_p2p.session.lobby import HostDesk, check_playable
from lodam_p2p.session.table import find_announcement, mqtt_connector
from lodam_p2p.transport.broker import LOOPBACK, EmbeddedBroker, ListenAddress, private_mosquitto
from lodam_p2p.transport.brokers import parse_brokers, rotated
from lodam_p2p.transport.url import BrokerUrl


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench net``."""
    parser = sub.add_parser("net", help="a whole match of bot processes over a broker",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seats", type=int, default=None,
                        help="seats (Lodam 3-10, default 5; Lorum 3-4, default 4)")
    add_game(parser)
    add_broker(parser, help="broker URL, or 'embedded' (default: a private mosquitto); "
               "several, a cluster's nodes, comma separated or repeated: the host and "
               "seats are spread round-robin over them")
    parser.add_argument("--bot", default="random", help="the bot at every seat (random)")
    parser.add_argument("--option", action="append", default=[], metavar="K=V",
                        help="a rules option (repeatable)")
    parser.add_argument("--matches", type=int, default=1, metavar="N",
                        help="matches to play one after another (default 1)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per match, then their summary")
    parser.add_argument("--delay-ms", metavar="MS[,JITTER]", type=_delay,
                        help="put every peer behind a relay that holds each read MS ms "
                             "+ U(0, JITTER) ms in each direction, in order, and count the "
                             "round trips per deal (see above)")
    parser.add_argument("--side-by-side", action="store_true",
                        help="with --delay-ms: play each match directly and through the "
                             "relay in turn, and give the ratio of their medians")
    parser.add_argument("--profile", metavar="DIR",
                        help="run every bot under cProfile and write DIR/seat-N.prof "
                             "(DIR/match-M-seat-N.prof with --matches)")
    parser.set_defaults(run=run)


def _delay(text: str) -> Delay:
    try:
        return Delay.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def run(args: argparse.Namespace) -> int:
    """Play the matches and print the figures."""
    game = game_for(args.game)
    if args.seats is None:
        args.seats = 5 if game.name == "lodam" else game.seats.high
    if args.seats not in game.seats:
        raise CliError(f"--seats must be between {game.seats.low} and {game.seats.high}")
    if not 1 <= args.matches <= MAX_MATCHES:
        raise CliError(f"--matches must be between 1 and {MAX_MATCHES}")
    if args.broker not in (None, "embedded"):
        check_broker(args.broker)
    if args.side_by_side and args.delay_ms is None:
        raise CliError("--side-by-side compares a match through --delay-ms with one without: "
                       "give --delay-ms")
    if args.delay_ms is not None and "," in (args.broker or ""):
        raise CliError("--delay-ms relays one broker, not a list")
    if args.delay_ms is not None and (args.broker or "").startswith("mqtts:"):
        raise CliError("--delay-ms relays plain MQTT only, not mqtts://")
    if args.profile is not None:
        try:
            os.makedirs(args.profile, exist_ok=True)
        except OSError as err:
            raise CliError(f"--profile: cannot use {args.profile} as a folder: "
                           f"{err.strerror}") from None
    # clean errors for an unknown bot or option, before any process
    bot_seats([args.bot], None, game.name)
    try:
        check_playable(game, parse_options(args.option, game.name))
    except GameError as err:
        raise CliError(str(err)) from None
    kinds = [None, args.delay_ms] if args.side_by_side else [args.delay_ms]
    samples: dict[Delay | None, list[dict[str, object]]] = {kind: [] for kind in kinds}
    for match in range(1, args.matches + 1):
        for kind in kinds:
            figures = _one_match(args, match, kind)
            samples[kind].append(figures)
            _show(figures, args, f"{game.title}, {args.seats} seats{_through(kind)}")
    summaries = {kind: summarize(found) for kind, found in samples.items()}
    if args.matches > 1:
        for kind, summary in summaries.items():
            _show(summary, args, f"median of {args.matches} matches{_through(kind)}")
    if args.side_by_side:
        _show_ratio(summaries[None], summaries[args.delay_ms], args)
    return 0


def _through(delay: Delay | None) -> str:
    return "" if delay is None else f", through a relay of {delay} each way"


def _show_ratio(direct: dict[str, object], delayed: dict[str, object],
                args: argparse.Namespace) -> None:
    """The delayed matches' time per deal over the direct ones' (medians)."""
    ratio = round(_float(delayed["deal_s"]) / max(_float(direct["deal_s"]), 1e-9), 2)
    line: dict[str, Any] = {"delayed_over_direct": ratio, "direct_deal_s": direct["deal_s"],
                            "delayed_deal_s": delayed["deal_s"],
                            "round_trips_per_deal": delayed.get("round_trips_per_deal"),
                            "turns_per_deal": delayed.get("turns_per_deal"),
                            "protocol_round_trips_per_deal":
                                delayed.get("protocol_round_trips_per_deal"),
                            "delay_ms": delayed.get("delay_ms")}
    if args.json:
        print(json.dumps(line), flush=True)
        return
    print(f"side by side: {line['delayed_deal_s']} s per deal through the relay "
          f"({line['delay_ms']} ms) against {line['direct_deal_s']} s directly: "
          f"x{ratio}; {line['round_trips_per_deal']} round trips per deal, of which "
          f"{line['turns_per_deal']} the game's own turns", flush=True)


def _float(value: object) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


#: Most matches one ``--matches`` asks for.
MAX_MATCHES = 100


def _one_match(args: argparse.Namespace, match: int,
               delay: Delay | None = None) -> dict[str, object]:
    """The figures of match number ``match`` (through a relay of ``delay``), its CPU
    counted from its own start."""
    cpu_before = _cpu_all()
    before = us_per_mult()
    try:
        figures = asyncio.run(_measure(args, match, delay))
    except SessionError as err:
        raise CliError(str(err), 1) from None
    figures["us_per_scalar_mult"] = round((before + us_per_mult()) / 2, 2)
    figures["cpu_s"] = round(_cpu_all() - cpu_before, 2)
    return figures


def summarize(samples: list[dict[str, object]]) -> dict[str, object]:
    """The medians of the matches' numeric figures, the fastest and slowest match, and
    the broker they ran on."""
    summary: dict[str, object] = {"broker": samples[0]["broker"], "matches": len(samples)}
    if "delay_ms" in samples[0]:
        summary["delay_ms"] = samples[0]["delay_ms"]
    for key in samples[0]:
        values = [_number(sample[key]) for sample in samples]
        if None in values:
            continue
        numbers = [v for v in values if v is not None]
        median = round(statistics.median(numbers), 2)
        whole = all(isinstance(v, int) for v in numbers) and float(median).is_integer()
        summary[key] = int(median) if whole else median
    times = [_number(sample["match_s"]) or 0.0 for sample in samples]
    summary["match_s_min"], summary["match_s_max"] = min(times), max(times)
    return summary


def _number(value: object) -> int | float | None:
    """A figure that is a number (a flag is not), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value


def _show(figures: dict[str, object], args: argparse.Namespace, what: str) -> None:
    if args.json:
        print(json.dumps(figures), flush=True)
        return
    spread = (f" (fastest {figures['match_s_min']} s, slowest {figures['match_s_max']} s)"
              if "match_s_min" in figures else "")
    trips = (f"; {figures['round_trips_per_deal']} round trips per deal, "
             f"{figures['turns_per_deal']} of them turns"
             if "round_trips_per_deal" in figures else "")
    print(f"{figures['broker']}: {what}, "
          f"{figures['deals']} deals ({figures['deal_s']} s each{trips}); "
          f"shuffle+deal median {figures['shuffle_deal_ms_median']} ms; "
          f"match {figures['match_s']} s{spread}; {figures['bytes_per_hand']} bytes per hand; "
          f"{figures['remasks']} re-masks; CPU {figures['cpu_s']} s "
          f"({figures['us_per_scalar_mult']} µs per multiplication)", flush=True)


def _cpu_all() -> float:
    """CPU of this process and of every child it has reaped."""
    return sum(_cpu(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def _cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


@contextlib.asynccontextmanager
async def _broker(choice: str | None) -> AsyncIterator[tuple[str, str]]:
    """(name, url) of the broker to measure."""
    if choice not in (None, "embedded"):
        yield choice, choice
        return
    if choice is None:
        with private_mosquitto() as url:
            if url is not None:
                yield "mosquitto", url
                return
    async with EmbeddedBroker(ListenAddress(LOOPBACK, 0)) as broker:
        yield "amqtt", broker.url



async def _measure(args: argparse.Namespace, match: int,
                   delay: Delay | None) -> dict[str, object]:
    async with _broker(args.broker) as (name, url), _relayed(url, delay) as relay:
        figures = await _match_over(args, match, name, url,
                                    url if relay is None else relay.url)
    if relay is not None and delay is not None:
        deals = _float(figures["deals"])
        trips = relay.round_trips
        figures["round_trips_per_deal"] = trips.per_deal(int(deals))
        figures["turns_per_deal"] = trips.turns_per_deal(int(deals))
        figures["protocol_round_trips_per_deal"] = round(
            trips.per_deal(int(deals)) - trips.turns_per_deal(int(deals)), 1)
        figures["delay_ms"] = f"{delay.ms:g},{delay.jitter:g}"
    return figures


@contextlib.asynccontextmanager
async def _relayed(url: str, delay: Delay | None) -> AsyncIterator[DelayRelay | None]:
    """A delaying relay to the broker at ``url``, or None without ``delay``."""
    if delay is None:
        yield None
        return
    broker = BrokerUrl.parse(url)
    async with DelayRelay(broker.host, broker.port, delay) as relay:
        yield relay


async def _match_over(args: argparse.Namespace, match: int, name: str, url: str,
                      peers_url: str) -> dict[str, object]:
    """One match on the broker at ``url``, every peer connecting to ``peers_url``."""
    game = game_for(args.game)
    options = parse_options(args.option, game.name)
    # a table of its own per match: on a shared broker nothing retained by the
    # last match (its announcement, its peers' presence) meets the next one
    table = f"bench-{os.getpid()}-{match}"
    link = Link(mqtt_connector(rotated(peers_url, 0)), table, new_identity(os.urandom))
    desk = HostDesk(table, link.peer, args.seats, options, game=game)
    host = Session(link, plan=None, entropy=os.urandom, host=link.peer, desk=desk,
                   timing=Timing(timeout_s=30, linger_s=2, lobby_s=60))
    task = asyncio.create_task(host.run())
    await _announced(url, table, task)  # before any bot looks for it
    prefix = "" if args.matches == 1 else f"match-{match}-"
    bots = [await _spawn(args.bot, table, rotated(peers_url, seat + 1), seat,
                         None if args.profile is None
                         else os.path.join(args.profile, f"{prefix}seat-{seat}.prof"))
            for seat in range(args.seats)]
    try:
        outcome = await task
    finally:
        for bot in bots:
            await _reap(bot)
    hands = max(1, len(host.deal_times))
    return {
        "broker": name,
        "shuffle_deal_ms_median": round(statistics.median(host.deal_times or [0]) * 1000, 1),
        "match_s": round(host.match_ended_at - host.match_started_at, 2),
        "deal_s": round((host.match_ended_at - host.match_started_at)
                        / max(1, outcome.deals), 3),
        "bytes_per_hand": round(link.bytes_received / hands),
        "deals": outcome.deals,
        "audits_passed": outcome.audits_passed,
        "remasks": host.remasks_audited,
        **({"nodes": _nodes(peers_url, args.seats, link)} if "," in peers_url else {}),
    }


def _nodes(urls: str, seats: int, link: Link) -> dict[str, dict[str, int]]:
    """Per node of a cluster: the seats spread onto it, and the messages the host's
    connection carried through it (it moves if its node is lost)."""
    counts = getattr(link.transport, "counts", {})
    spread = [rotated(urls, seat + 1).split(",", 1)[0] for seat in range(seats)]
    return {str(url): {"seats": sum(str(BrokerUrl.parse(s)) == str(url) for s in spread),
                       "host_messages": counts.get(url.redacted(), 0)}
            for url in parse_brokers(urls)}


#: The longest the host may take to announce its table (a safety net: a loaded machine
#: takes well under a second).
ANNOUNCE_S = 60.0


async def _announced(url: str, table: str, host: asyncio.Task[object]) -> None:
    """Return once the broker holds ``table``'s announcement (each look ends when the
    lobby's probe comes back, however slow the machine), or once the host has ended
    (awaiting it then tells why); a host that never announces is a one-line error."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + ANNOUNCE_S
    while not host.done():
        try:
            await find_announcement(mqtt_connector(url), table)
            return
        except SessionError:
            if loop.time() > deadline:
                raise SessionError(f"the host did not announce {table!r} in "
                                   f"{ANNOUNCE_S:.0f} s") from None
        await asyncio.sleep(0.05)


async def _spawn(bot: str, table: str, url: str, seat: int,
                 profile: str | None) -> asyncio.subprocess.Process:
    """A ``lodam bot`` process (under cProfile into the file ``profile`` if given)."""
    runner = ["-m", "lodam_p2p"]
    if profile is not None:
        runner = ["-c", _PROFILED, profile]
    return await asyncio.create_subprocess_exec(
        sys.executable, *runner, "bot", bot, "--table", table, "--broker", url,
        "--seed", str(seat), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


#: ``python -c`` program running ``lodam`` under cProfile with a CPU-time clock (the
#: wall clock of a loaded machine would charge other processes' time to whatever
#: waited); argv[1] is the output file, the rest ``lodam``'s arguments.
_PROFILED = """
import cProfile, sys, time
out = sys.argv[1]
del sys.argv[1]
profiler = cProfile.Profile(time.process_time)
profiler.enable()
try:
    from lodam_p2p.cli import main
    main(sys.argv[1:])
finally:
    profiler.disable()
    profiler.dump_stats(out)
"""


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Wait for a bot process to end (it ends with the match); kill it if it lingers."""
    try:
        await asyncio.wait_for(process.wait(), 20)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

