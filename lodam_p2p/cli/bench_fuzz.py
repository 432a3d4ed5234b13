"""``lodam bench fuzz``: random and mutated frames through a session's receive path.

A table of ``random`` bots plays on an in-memory hub until one seat's hand reaches a
chosen step (a different one for each table); then every session stops and that seat's
session is driven by hand, in this process: each frame goes through its link (size,
self-certifying key, signature, frame decoding, the per-sender stream) into its table
machine's ``receive`` (body decoding, routing, the hand, the audit …), then its
``handle_timer``. The machine is strict there: whatever a handler lets out escapes
instead of being logged and counted. Frames are:

- random bytes, on seated peers' topics, an outsider's, presence, the lobby, junk topics;
- real frames of the match replayed, or with bytes flipped (the signature then fails);
- **validly signed** frames from seated peers' keys: random frames, real frames with
  mutated headers, real bodies with flipped bytes, and bodies rebuilt with mutated kind,
  hand, step, arguments and envelopes — at the stream's next number, so they reach the
  session — and heartbeats and resend requests with odd numbers and ranges.

Any exception that escapes is counted by kind and place, and its first traceback is
printed; the table is then set up afresh. ``--frames`` in all, a new table every
``--per-table`` frames; a progress line goes to stderr every 100,000 frames.
Reproducible for a given ``--seed``. Exit status 0 when nothing escaped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack

from lodam_p2p.cli import CliError
from lodam_p2p.cli.netrun import bot_seats
from lodam_p2p.games.lodam import Options
from lodam_p2p.session import Session, Timing
from lodam_p2p.session.movebody import Tag
from lodam_p2p.session.table import _sessions
from lodam_p2p.session.wire import PUBKEY_LEN, RETIRED, SIG_LEN, Msg, seal_frame
from lodam_p2p.transport import topics
from lodam_p2p.transport.frames import Frame, FrameKind
from lodam_p2p.transport.memory import MemoryHub

TABLE = "fuzz"
#: Frames between progress lines on stderr.
PROGRESS_EVERY = 100_000
#: Nobody is found silent while frozen (an hour: the longest limit a table takes).
FROZEN = Timing(timeout_s=3600, grace_s=3600, linger_s=0.1, lobby_s=3600, heartbeat_s=0.05,
                retry_s=0.05)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lodam bench fuzz``."""
    parser = sub.add_parser("fuzz", help="random and mutated frames into a session",
                            description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=100_000, help="frames in all (100000)")
    parser.add_argument("--per-table", type=int, default=25_000, metavar="N",
                        help="frames before a fresh table (25000)")
    parser.add_argument("--seats", type=int, default=4, help="seats (3-10, default 4)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Fuzz and print the figures."""
    if not 1 <= args.frames <= 10**8 or args.per_table < 1:
        raise CliError("--frames must be 1 to 10**8 and --per-table at least 1")
    if not 3 <= args.seats <= 10:
        raise CliError("--seats must be between 3 and 10")
    report = asyncio.run(fuzz(args.frames, seed=args.seed, per_table=args.per_table,
                              seats=args.seats, progress=True))
    for place, text in report.tracebacks.items():
        print(f"--- {place}\n{text}")
    figures = report.figures()
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{figures['frames']} frames in {figures['seconds']} s "
              f"({figures['tables']} tables): {figures['exceptions']} exceptions escaped")
    return 0 if report.exceptions == 0 else 1


@dataclass
class FuzzReport:
    """What a fuzz run came to."""

    frames: int = 0
    tables: int = 0
    seconds: float = 0.0
    by_mutation: Counter[str] = field(default_factory=Counter)
    escaped: Counter[str] = field(default_factory=Counter)
    tracebacks: dict[str, str] = field(default_factory=dict)

    @property
    def exceptions(self) -> int:
        """Exceptions that escaped the receive path."""
        return sum(self.escaped.values())

    def figures(self) -> dict[str, object]:
        """The figures as a JSON-ready dictionary."""
        return {"frames": self.frames, "tables": self.tables, "seconds": round(self.seconds, 1),
                "exceptions": self.exceptions, "escaped": dict(self.escaped),
                "mutations": dict(sorted(self.by_mutation.items()))}


async def fuzz(frames: int, *, seed: int, per_table: int = 25_000, seats: int = 4,
               progress: bool = False) -> FuzzReport:
    """Push ``frames`` random and mutated frames through frozen sessions' receive paths."""
    report = FuzzReport()
    rng = random.Random(seed)
    started = time.perf_counter()
    while report.frames < frames:
        frozen = await freeze(seats, seed=rng.randrange(2**32), step=rng.randrange(0, 40))
        report.tables += 1
        forge = Forge(frozen, random.Random(rng.randrange(2**32)))
        for _ in range(min(per_table, frames - report.frames)):
            mutation, topic, payload = forge.next()
            report.frames += 1
            report.by_mutation[mutation] += 1
            if progress and report.frames % PROGRESS_EVERY == 0:
                print(f"fuzz: {report.frames} frames, {time.perf_counter() - started:.0f} s, "
                      f"{report.exceptions} escaped", file=sys.stderr, flush=True)
            try:
                await frozen.take(topic, payload, pause=report.frames % 64 == 0)
            except Exception as err:  # anything escaping is the finding
                place = _place(err, mutation)
                report.escaped[place] += 1
                report.tracebacks.setdefault(place, traceback.format_exc())
                break  # the session may be broken now: a fresh table
        await frozen.close()
    report.seconds = time.perf_counter() - started
    return report


def _place(err: Exception, mutation: str) -> str:
    frame = traceback.extract_tb(err.__traceback__)[-1]
    return f"{type(err).__name__} at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} " \
           f"({mutation})"


class _Sink:
    """A transport that swallows what the frozen session publishes."""

    epoch = 0

    async def publish(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        """Drop it."""

    async def close(self) -> None:
        """Nothing to close."""


@dataclass
class Frozen:
    """A session stopped mid-match, driven frame by frame, and what it saw till then."""

    session: Session
    others: list[Session]
    seen: list[tuple[str, bytes]]  #: every peer-topic publication of the match so far

    async def take(self, topic: str, payload: bytes, *, pause: bool) -> None:
        """One frame through the link and the table machine (strict: what a handler lets
        out escapes), then the machine's timers; the player is asked as the runner would."""
        session, runner = self.session, self.session.runner
        await session.link.reader.take(topic, payload)
        runner.take_waiting()
        session.handle_timer(runner.clock())
        runner.act()
        session.outgoing.clear()
        session.retained.clear()
        if pause:
            await asyncio.sleep(0)  # the bot's answers, asked for in tasks, come in

    def next_seq(self, peer: str) -> int:
        """The sequence number the frozen session expects next from ``peer``."""
        inbox = self.session.link.endpoint._inboxes.get(peer)
        return inbox.next_seq if inbox is not None else 1  # a first stream starts at 1

    async def close(self) -> None:
        """Stop the bot's pending answer, if any."""
        self.session.runner.stop()


async def freeze(seats: int, *, seed: int, step: int) -> Frozen:
    """A table of ``random`` bots stopped once the first seat's hand reaches ``step``."""
    hub = MemoryHub()
    tap = hub.transport()
    await tap.connect()
    await tap.subscribe(topics.table_peers_pattern(TABLE))
    seen: list[tuple[str, bytes]] = []

    async def record() -> None:
        async for message in tap.messages():
            seen.append((message.topic, message.payload))

    recorder = asyncio.create_task(record())
    plans = bot_seats(["random"] * seats, seed)
    sessions = _sessions(TABLE, Options(lives=2), seats, plans, connect=hub.transport,
                         seed=seed, timing=FROZEN, spectator=None)
    target = sessions[1]
    tasks = [asyncio.create_task(s.run()) for s in sessions]
    async with asyncio.timeout(120):  # a safety net: a table reaches any step in seconds
        while not (target.hand is not None and target.hand.step >= step) \
                and not tasks[1].done():
            await asyncio.sleep(0.002)
    await _stop(tasks)
    recorder.cancel()
    await asyncio.gather(recorder, return_exceptions=True)
    target.link.transport = _Sink()  # type: ignore[assignment]
    target.link.reader.inbox = target.runner.inbox
    target.strict = True
    target.ask_again()  # its bot's answer was stopped with it
    return Frozen(target, [s for s in sessions if s is not target], seen)


async def _stop(tasks: list[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` until they are all done: on Python 3.11 ``asyncio.wait_for`` can
    swallow a cancellation that arrives as its inner wait completes."""
    while not all(task.done() for task in tasks):
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=0.05)
    await asyncio.gather(*tasks, return_exceptions=True)


class Forge:
    """Makes the frames: random, replayed, flipped, and validly signed mutations."""

    def __init__(self, frozen: Frozen, rng: random.Random) -> None:
        self.frozen, self.rng = frozen, rng
        self.seen = frozen.seen or [(topics.peer_topic(TABLE, frozen.others[0].link.peer), b"")]
        self.frames = self._frames()
        self.bodies = [frame.body for frame in self.frames if frame.kind == FrameKind.DATA]
        self.mutations: list[tuple[str, Callable[[], tuple[str, bytes]]]] = [
            ("random", self.random_bytes), ("replay", self.replay), ("flip", self.flip),
            ("signed-random-frame", self.signed_random_frame),
            ("signed-mutated-frame", self.signed_mutated_frame),
            ("signed-flipped-body", self.signed_flipped_body),
            ("signed-mutated-body", self.signed_mutated_body),
            ("signed-mutated-body", self.signed_mutated_body),
            ("signed-restamped-body", self.signed_restamped_body),
            ("signed-control", self.signed_control),
        ]

    def next(self) -> tuple[str, str, bytes]:
        """(mutation, topic, payload) of the next frame."""
        name, make = self.rng.choice(self.mutations)
        topic, payload = make()
        return name, topic, payload

    def _frames(self) -> list[Frame]:
        frames = []
        for _topic, payload in self.seen:
            try:
                frames.append(Frame.decode(payload[PUBKEY_LEN + SIG_LEN:]))
            except ValueError:
                continue
        return frames

    # --- unsigned ---------------------------------------------------------------------

    def random_bytes(self) -> tuple[str, bytes]:
        rng = self.rng
        peer = rng.choice(self.frozen.others).link.peer
        topic = rng.choice([
            topics.peer_topic(TABLE, peer), topics.peer_topic(TABLE, "p" + "0" * 20),
            topics.presence_topic(TABLE, peer), topics.announcement_topic(TABLE, "0" * 16),
            f"lodam/v3/t/{TABLE}/p", "lodam/v3/t/x/p/" + "\u00e9" * 3, "lodam/v1/junk",
        ])
        return topic, rng.randbytes(rng.choice([0, 1, 50, 96, 97, 200, 2000]))

    def replay(self) -> tuple[str, bytes]:
        return self.rng.choice(self.seen)

    def flip(self) -> tuple[str, bytes]:
        topic, payload = self.rng.choice(self.seen)
        return topic, self._flipped(payload)

    # --- signed by a seated peer ------------------------------------------------------

    def _signed(self, frame: bytes, session: Session | None = None) -> tuple[str, bytes]:
        link = (session or self.rng.choice(self.frozen.others)).link
        return (topics.peer_topic(TABLE, link.peer),
                seal_frame(link.identity, link.pubkey, TABLE, frame))

    def signed_random_frame(self) -> tuple[str, bytes]:
        sender = self.rng.choice(self.frozen.others)
        fields = [1, self.rng.choice([0, 1, 2, 3, -1]), sender.link.peer,
                  self._any_int(), self._value(2)]
        if self.rng.random() < 0.3:
            fields = self._value(3)
        return self._signed(msgpack.packb(fields, use_bin_type=True), sender)

    def signed_mutated_frame(self) -> tuple[str, bytes]:
        sender = self.rng.choice(self.frozen.others)
        frame = self.rng.choice(self.frames or [Frame(FrameKind.STATUS, "p" + "1" * 20, 0)])
        data = Frame(frame.kind, sender.link.peer, frame.seq, frame.body).encode()
        return self._signed(self._flipped(data), sender)

    def signed_flipped_body(self) -> tuple[str, bytes]:
        body = self._flipped(self.rng.choice(self.bodies or [b"\x90"]))
        return self._data(body)

    def signed_mutated_body(self) -> tuple[str, bytes]:
        rng = self.rng
        try:
            fields = msgpack.unpackb(rng.choice(self.bodies or [b"\x90"]))
        except ValueError:
            fields = []
        if not isinstance(fields, list) or len(fields) != 6:
            fields = [1, int(Msg.MOVE), 1, 0, ["play", 0], []]
        hand, step = self._hand_step()
        choices: list[Callable[[list[Any]], None]] = [
            lambda f: f.__setitem__(1, rng.choice([*map(int, Msg), *RETIRED, 99, -1])),
            lambda f: f.__setitem__(2, rng.choice([hand, hand + 1, max(0, hand - 1), 0])),
            lambda f: f.__setitem__(3, rng.choice([step, step + 1, max(0, step - 1)])),
            lambda f: f.__setitem__(4, self._mutated_list(f[4])),
            lambda f: f.__setitem__(4, self._retagged(f[4])),
            lambda f: f.__setitem__(5, self._mutated_envelopes(f[5])),
            lambda f: f.__setitem__(rng.randrange(6), self._value(2)),
        ]
        fields[2], fields[3] = hand, step
        for change in rng.sample(choices, rng.randint(1, 3)):
            change(fields)
        return self._data(msgpack.packb(fields, use_bin_type=True))

    def signed_restamped_body(self) -> tuple[str, bytes]:
        """A real body of the match, moved to the current hand and step unchanged."""
        try:
            fields = msgpack.unpackb(self.rng.choice(self.bodies or [b"\x90"]))
        except ValueError:
            fields = []
        if isinstance(fields, list) and len(fields) == 6:
            fields[2], fields[3] = self._hand_step()
        return self._data(msgpack.packb(fields, use_bin_type=True))

    def signed_control(self) -> tuple[str, bytes]:
        rng = self.rng
        sender = rng.choice(self.frozen.others)
        me = self.frozen.session.link.peer
        if rng.random() < 0.5:
            frame = Frame(FrameKind.STATUS, sender.link.peer, self._any_int() % 2**63)
        else:
            ranges = [[self._any_int(), self._any_int()] for _ in range(rng.randint(0, 40))]
            target = rng.choice([me, sender.link.peer, "p" + "2" * 20])
            body = msgpack.packb([target, ranges], use_bin_type=True)
            frame = Frame(FrameKind.RESEND, sender.link.peer, rng.randrange(0, 50), body)
        return self._signed(frame.encode(), sender)

    def _data(self, body: bytes) -> tuple[str, bytes]:
        """A DATA frame at the stream's next number (now and then another) from a seat."""
        sender = self._sender()
        seq = self.frozen.next_seq(sender.link.peer)
        if self.rng.random() < 0.15:
            seq = self.rng.choice([max(1, seq - 1), seq + 1, seq + 5, 2**63 - 1])
        return self._signed(Frame(FrameKind.DATA, sender.link.peer, seq, body).encode(), sender)

    def _sender(self) -> Session:
        """A seated peer; half the time the one the hand awaits, if it is not ours."""
        session, others = self.frozen.session, self.frozen.others
        hand, roster = session.hand, session.roster
        due = hand.awaited() if hand is not None else None
        if due is not None and roster is not None and self.rng.random() < 0.5:
            peer = roster.sitters[due[0]].peer
            for other in others:
                if other.link.peer == peer:
                    return other
        return self.rng.choice(others)

    # --- values -----------------------------------------------------------------------

    def _hand_step(self) -> tuple[int, int]:
        session = self.frozen.session
        step = session.hand.step if session.hand is not None else 0
        return session.hand_no, step + self.rng.choice([0, 0, 0, 1, -1])

    def _flipped(self, data: bytes) -> bytes:
        rng, out = self.rng, bytearray(data)
        for _ in range(rng.randint(1, 8)):
            what = rng.random()
            if out and what < 0.6:
                out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
            elif out and what < 0.8:
                del out[rng.randrange(len(out)):]
            else:
                out.insert(rng.randrange(len(out) + 1), rng.randrange(256))
        return bytes(out)

    def _any_int(self) -> int:
        return self.rng.choice([0, 1, 2, 7, 255, 2**31, 2**32, 2**63 - 1, 2**64 - 1, -1,
                                -(2**63), self.rng.randrange(100)])

    def _value(self, depth: int) -> Any:
        rng = self.rng
        kind = rng.randrange(9 if depth > 0 else 7)
        simple: list[Any] = [self._any_int(), rng.random() * 1e6, "", "x" * rng.randrange(300),
                             rng.randbytes(rng.choice([0, 32, 64, 65, 2000])), None, True]
        if kind < 7:
            return simple[kind]
        if kind == 7:
            return [self._value(depth - 1) for _ in range(rng.randrange(5))]
        return {str(i): self._value(depth - 1) for i in range(rng.randrange(3))}

    def _mutated_list(self, items: Any) -> list[Any]:
        rng = self.rng
        out = list(items) if isinstance(items, list) else []
        if out and rng.random() < 0.6:
            out[rng.randrange(len(out))] = self._value(1)
        elif out and rng.random() < 0.5:
            del out[rng.randrange(len(out))]
        else:
            out.append(self._value(1))
        return out

    def _retagged(self, items: Any) -> list[Any]:
        """A MOVE's arguments under another move's tag (either game's), its fields kept:
        a body the wire passes and the hand's codec must refuse."""
        out = list(items) if isinstance(items, list) else []
        tag = self.rng.choice([*Tag, "pass", "lay", "announce", "x" * 64])
        return [str(tag), *out[1:]]

    def _mutated_envelopes(self, envelopes: Any) -> list[Any]:
        rng = self.rng
        out = [e for e in envelopes if isinstance(e, bytes)] if isinstance(envelopes, list) else []
        if out and rng.random() < 0.7:
            index = rng.randrange(len(out))
            out[index] = self._flipped(out[index])
        elif rng.random() < 0.5:
            out.append(rng.randbytes(rng.choice([0, 10, 200])))
        else:
            out = out * 2
        return out
