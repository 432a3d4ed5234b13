"""A delaying TCP relay between MQTT clients and their broker, for ``lodam bench net``.

:class:`DelayRelay` listens on an ephemeral loopback port and forwards every connection
to the broker. Each read, in each direction, is held for ``delay_ms`` plus a uniform
draw from 0 to ``jitter_ms`` milliseconds before it is written on, and a read never
overtakes the one before it on its connection: a LAN's latency, in order, as TCP gives
it. Pointing every peer of a table at the relay shows what a LAN costs the protocol.

As the bytes pass, the relay reads the MQTT packets in them and counts the table's
sequential network round trips (:class:`RoundTrips`), from what the peers' own
connections say:

- A *round trip* is one frame's passage from a seat, through the broker, to a seat
  that had it before sending its next frame. Only DATA frames on peer topics count
  (``lodam/v3/t/<table>/p/<peer>``, signed as the session signs them, or bare);
  heartbeats, resend requests, presence and the lobby do not.
- Each DATA frame gets a *depth*: the longest chain of round trips behind it. A frame is
  as deep as the deepest frame its seat had sent before it (a seat's own frames in a
  row cost no wait), or one deeper than the deepest frame its seat had *received*
  from another seat before sending it, whichever is more. The first frames, sent
  after receiving nothing, are at depth 1. A seat "had received" a frame when its
  PUBACK for that frame came before the new frame on its connection (the client
  acknowledges a QoS 1 message once it has read it, and a TCP stream keeps order), so
  a frame that was still in flight when the seat sent is not counted as waited for.
- The match's *depth* is its deepest frame's: how many round trips it took one after
  another, however many frames went out in parallel. ``round_trips_per_deal`` is that
  divided by the match's deals (the lobby and the lot for the first dealer, a few round
  trips, are included).

- Not every round trip is the protocol's: most are the game's own *turns*, a seat
  deciding after it has seen what the seat before it did (a card played, an offer
  made or declined), which no protocol can run side by side. A depth at which some
  seat sent a decision (a MOVE that is not an exchange's outcome or re-mask) is a
  turn; ``turns_per_deal`` counts them, and ``protocol_round_trips_per_deal`` the
  rest: the keys, the shuffles one after another, the deal's shares, the talon's
  top, an exchange's outcome, the audit openings, the lobby and the lot.

A frame resent (the same sender and number) keeps the depth it was first given.

The relay runs on an event loop of its own, in a thread of its own, so that the work of
the process that starts it (``bench net``'s host, which checks every proof) never holds
a read longer than the delay drawn for it.
Randomness for the jitter comes from the ``random`` module: this is a measuring tool at
the edge, not a part of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from lodam_p2p.session.movebody import Tag
from lodam_p2p.session.wire import PUBKEY_LEN, SIG_LEN, BadMessage, Body, Msg
from lodam_p2p.transport.frames import Frame, FrameError, FrameKind
from lodam_p2p.transport.topics import BadName, TopicKind, parse_topic

#: MQTT control packet types read here.
_PUBLISH, _PUBACK = 3, 4
#: What a session puts before each frame it publishes: its key and its signature.
_SIGNED = PUBKEY_LEN + SIG_LEN
#: Most bytes one read takes.
_READ_BYTES = 65536


@dataclass(frozen=True, slots=True)
class Delay:
    """``MS[,JITTER]``: each read held ``ms`` + U(0, ``jitter``) milliseconds."""

    ms: float
    jitter: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Delay:
        """Parse ``MS`` or ``MS,JITTER``; ``ValueError`` naming what is wrong."""
        parts = text.split(",")
        try:
            values = [float(part) for part in parts]
        except ValueError:
            raise ValueError(f"not MS or MS,JITTER in milliseconds: {text!r}") from None
        if len(values) > 2 or not all(0 <= v <= 1000 for v in values):
            raise ValueError(f"MS and JITTER must be 0 to 1000 milliseconds: {text!r}")
        return cls(values[0], values[1] if len(values) == 2 else 0.0)

    def __str__(self) -> str:
        return f"{self.ms:g}+U(0,{self.jitter:g}) ms" if self.jitter else f"{self.ms:g} ms"


@dataclass(slots=True)
class RoundTrips:
    """The causal depth of the frames that crossed the relay (see the module docstring)."""

    #: (sender, number) of each DATA frame seen, and its depth
    depth_of: dict[tuple[str, int], int] = field(default_factory=dict)
    #: the deepest frame so far
    deepest: int = 0
    #: the depths at which some seat sent a decision of the game (its turns)
    turn_depths: set[int] = field(default_factory=set)

    def published(self, frame: Frame, own_deepest: int, received: int) -> int:
        """Give a DATA frame its depth (once: a resend keeps it); return it."""
        key = (frame.sender, frame.seq)
        if key not in self.depth_of:
            depth = self.depth_of[key] = max(own_deepest, received + 1)
            self.deepest = max(self.deepest, depth)
            if is_turn(frame.body):
                self.turn_depths.add(depth)
        return self.depth_of[key]

    def per_deal(self, deals: int) -> float:
        """The match's depth per deal."""
        return round(self.deepest / max(1, deals), 1)

    def turns_per_deal(self, deals: int) -> float:
        """The depths that were the game's own turns, per deal."""
        return round(len(self.turn_depths) / max(1, deals), 1)


#: Moves that are the protocol's part of an exchange, not a seat's decision.
_BOOKKEEPING = frozenset({Tag.OUTCOME.value, Tag.REMASK.value})


def is_turn(body: bytes) -> bool:
    """Whether a DATA frame's body is a seat's decision in the game: a MOVE other than an
    exchange's outcome or re-mask (a body that does not read is none)."""
    try:
        message = Body.decode(body)
    except BadMessage:
        return False
    return (message.kind is Msg.MOVE and bool(message.args)
            and message.args[0] not in _BOOKKEEPING)


class _Peer:
    """What one client connection has sent and received, as far as depth goes."""

    def __init__(self, counts: RoundTrips) -> None:
        self.counts = counts
        self.name: str | None = None
        self.sent_depth = 0  # the deepest frame it sent
        self.received_depth = 0  # the deepest frame from another seat it had read
        self.delivered: dict[int, int] = {}  # packet id of a delivery -> its depth

    def upstream(self, packet_type: int, flags: int, body: bytes) -> None:
        """A packet the client sent to the broker."""
        if packet_type == _PUBACK and len(body) >= 2:
            depth = self.delivered.pop(int.from_bytes(body[:2], "big"), 0)
            self.received_depth = max(self.received_depth, depth)
        elif packet_type == _PUBLISH:
            frame = _data_frame(flags, body)
            if frame is not None:
                self.name = frame.sender
                self.sent_depth = self.counts.published(frame, self.sent_depth,
                                                        self.received_depth)

    def downstream(self, packet_type: int, flags: int, body: bytes) -> None:
        """A packet the broker sent to the client."""
        if packet_type != _PUBLISH or (flags >> 1) & 3 == 0:
            return
        frame = _data_frame(flags, body)
        if frame is None or frame.sender == self.name:
            return
        depth = self.counts.depth_of.get((frame.sender, frame.seq), 0)
        topic_len = int.from_bytes(body[:2], "big")
        self.delivered[int.from_bytes(body[2 + topic_len:4 + topic_len], "big")] = depth


def _data_frame(flags: int, body: bytes) -> Frame | None:
    """The DATA frame a PUBLISH on a peer topic carries, else None."""
    if len(body) < 2:
        return None
    topic_len = int.from_bytes(body[:2], "big")
    try:
        topic = body[2:2 + topic_len].decode()
        if parse_topic(topic).kind is not TopicKind.PEER:
            return None
        payload = body[2 + topic_len + (2 if (flags >> 1) & 3 else 0):]
    except (UnicodeDecodeError, BadName):
        return None
    frame = _frame(payload[_SIGNED:]) or _frame(payload)
    return frame if frame is not None and frame.kind is FrameKind.DATA else None


def _frame(data: bytes) -> Frame | None:
    try:
        return Frame.decode(data)
    except FrameError:
        return None


class _Packets:
    """Splits one direction's bytes into MQTT packets as they come."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.broken = False

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        """The whole packets completed by ``data``: (type, flags, body after the fixed
        header). On bytes that are not MQTT it stops reading (the relay goes on)."""
        if self.broken:
            return []
        self._buffer += data
        packets = []
        while (packet := self._next()) is not None:
            packets.append(packet)
        return packets

    def _next(self) -> tuple[int, int, bytes] | None:
        buffer = self._buffer
        length, shift, index = 0, 0, 1
        while True:
            if index >= len(buffer):
                return None
            byte = buffer[index]
            length |= (byte & 0x7F) << shift
            index += 1
            if not byte & 0x80:
                break
            shift += 7
            if shift > 21:
                self.broken = True
                return None
        if len(buffer) < index + length:
            return None
        packet = (buffer[0] >> 4, buffer[0] & 0x0F, bytes(buffer[index:index + length]))
        del buffer[:index + length]
        return packet


class DelayRelay:
    """``async with DelayRelay(broker_host, broker_port, delay) as relay: relay.url``.

    The relay serves from a thread of its own (see the module docstring); ``round_trips``
    is written there and is whole once the ``async with`` has ended."""

    def __init__(self, host: str, port: int, delay: Delay,
                 rng: random.Random | None = None) -> None:
        self._target = (host, port)
        self.delay = delay
        self._rng = rng or random.Random()
        self.round_trips = RoundTrips()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._failed: OSError | None = None
        self.url = ""

    async def __aenter__(self) -> DelayRelay:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,),
                                        name="delay-relay", daemon=True)
        self._thread.start()
        await asyncio.get_running_loop().run_in_executor(None, ready.wait)
        if self._failed is not None:
            raise self._failed
        return self

    async def __aexit__(self, *_exc: object) -> None:
        loop, thread = self._loop, self._thread
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed between the check and now
                loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            await asyncio.get_running_loop().run_in_executor(None, thread.join)

    def _serve(self, ready: threading.Event) -> None:
        """The relay's thread: listen, tell ``ready``, relay until stopped, clean up."""
        loop = self._loop = asyncio.new_event_loop()
        try:
            try:
                loop.run_until_complete(self._listen())
            except OSError as err:
                self._failed = err
                return
            finally:
                ready.set()
            loop.run_forever()
            loop.run_until_complete(self._close())
        finally:
            loop.close()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.url = f"mqtt://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await task

    async def _connection(self, client_r: asyncio.StreamReader,
                          client_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            broker_r, broker_w = await asyncio.open_connection(*self._target)
        except OSError:
            client_w.close()
            return
        peer = _Peer(self.round_trips)
        try:
            await asyncio.gather(self._pipe(client_r, broker_w, peer.upstream),
                                 self._pipe(broker_r, client_w, peer.downstream))
        finally:
            for writer in (client_w, broker_w):
                writer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter,
                    note: Callable[[int, int, bytes], None]) -> None:
        """Copy ``source`` to ``sink``, each read held for the delay, in order; the
        packets are read as they are written on (``note``)."""
        loop = asyncio.get_running_loop()
        held: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()
        packets = _Packets()

        async def reader() -> None:
            last = 0.0
            with contextlib.suppress(OSError):
                while data := await source.read(_READ_BYTES):
                    wait = self.delay.ms + self._rng.uniform(0, self.delay.jitter)
                    last = max(last, loop.time() + wait / 1000)
                    held.put_nowait((last, data))
            held.put_nowait(None)

        async def writer() -> None:
            while (item := await held.get()) is not None:
                due, data = item
                if due > loop.time():
                    await asyncio.sleep(due - loop.time())
                for kind, flags, body in packets.feed(data):
                    note(kind, flags, body)
                sink.write(data)
                await sink.drain()
            if sink.can_write_eof():
                sink.write_eof()

        with contextlib.suppress(OSError):
            await asyncio.gather(reader(), writer())
