"""A workbench for fair-deal experiments: one hand among N seats in one process.

:class:`Sim` runs a ``Hand`` per seat on a perfect broadcast and counts what a
researcher compares: envelopes and bytes each seat sends, broadcast rounds, point
multiplications and CPU per seat (by phase), and the critical path (the sequential
CPU along the longest chain of messages). It exports the hand's transcript for
``lodam verify``, and a seat can be given a *rewrite*: a function that sees every
message the seat is about to send and returns what it sends instead, before the
signature and the chain are made (so a planted cheat is a validly signed, correctly
chained message, which is what the protocol must convict)::

    from lodam_p2p.fairdeal import sim
    config, keys = sim.table(5, 52, argument="tw")
    bench = sim.Sim(config, keys, clock=time.process_time,
                    rewrite={2: sim.only(ShuffleMsg, my_false_shuffle)})
    bench.deal()                      # keys, shuffles, deal: every seat in play
    bench.finish()                    # every seat opens its secrets: the audit
    # or at once: sim.run(config, keys, "hand", clock=…) plays the scripted hand
    bench.convictions                 # who blamed whom, for what, in which round
    bench.figures()                   # the counters
    bench.transcript().to_json()      # for ``lodam verify``

Rounds. Delivery goes in synchronous rounds: every envelope sent in round r reaches
every other seat in round r + 1, in the order sent, and what a seat sends in answer
goes out in the next round. A command (a reveal, a transfer, a re-mask, an opening)
starts a new round of its own. A deal takes m + 2 rounds at m seats: the keys, the m
shuffles one after the other, the deal shares.

Critical path. Every seat has a clock that only its own work moves (``clock`` measures
that work): an envelope leaves at its sender's clock when it was sent; a seat that
takes it starts no earlier than that. With zero network latency and every seat on its
own processor, the hand's critical path is the latest clock at the end.

The harness is an edge, not a core: it reads no clock of its own and draws no
randomness. ``clock`` (e.g. ``time.process_time``) is passed in, and without it every
CPU figure is 0. Each seat pays for its own proof checks, as on its own machine: the
process's memo of passed checks is off inside the harness unless ``memo=True``. Entropy
is SHA-256 in counter mode over a seed per seat (reproducible: the same seed plays the
same hand), unless ``entropy`` gives each seat a source such as ``os.urandom``. Identity
keys come from a seed too (:func:`table`).
"""

from __future__ import annotations

import hashlib
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal.config import AuditChecker, Event, HandConfig, Phase, deal_schedule
from lodam_p2p.fairdeal.errors import LocalProtocolError, RemoteProtocolError
from lodam_p2p.fairdeal.group import Entropy, OpCounter, equivalent_mults
from lodam_p2p.fairdeal.hand import Hand
from lodam_p2p.fairdeal.memo import MEMO
from lodam_p2p.fairdeal.messages import Message
from lodam_p2p.fairdeal.transcript import Transcript

#: A seat's rewrite: the hand about to send, and the message; returns what it sends.
Rewrite = Callable[[Hand, Message], Message]
#: A clock: seconds of CPU (or of anything) so far.
Clock = Callable[[], float]

PHASES = ("keys", "shuffle", "deal", "play", "audit")
_LABEL = {Phase.KEYS: "keys", Phase.SHUFFLE: "shuffle", Phase.DEAL: "deal",
          Phase.PLAY: "play", Phase.AUDIT: "audit", Phase.DONE: "audit",
          Phase.ABORTED: "play"}


# --- seeds, keys, configurations --------------------------------------------------------


def drbg(seed: bytes) -> Entropy:
    """Deterministic entropy: SHA-256 in counter mode over ``seed`` (for experiments and
    tests only: a real seat draws from ``os.urandom``)."""
    state = {"counter": 0}

    def entropy(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(seed + state["counter"].to_bytes(8, "big")).digest()
            state["counter"] += 1
        return out[:n]

    return entropy


def identity(seat: int, seed: bytes = b"") -> Ed25519PrivateKey:
    """A deterministic Ed25519 identity key for ``seat``."""
    return Ed25519PrivateKey.from_private_bytes(
        hashlib.sha256(b"id" + seed + bytes([seat])).digest())


def raw_public(key: Ed25519PrivateKey) -> bytes:
    """The 32 raw bytes of an identity's public key."""
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw)


def table(seats: int, deck_size: int = 52, *, hand_size: int | None = None,
          argument: str = "tw", table_id: bytes = b"fairdeal-sim-tbl", hand: int = 1,
          timeout: float = 30.0, seed: bytes = b"",
          ) -> tuple[HandConfig, dict[int, Ed25519PrivateKey]]:
    """A configuration for seats 0 … seats−1, dealt round-robin ``hand_size`` cards each
    (by default as many as leave one card or more in the talon), and their identity
    keys."""
    order = tuple(range(seats))
    keys = {s: identity(s, seed) for s in order}
    size = hand_size if hand_size is not None else max(0, (deck_size - 1) // seats)
    config = HandConfig(table_id, hand, order, tuple(raw_public(keys[s]) for s in order),
                        deck_size, deal_schedule(order, size, deck_size), timeout, argument)
    return config, keys


# --- rewriting what a seat sends ----------------------------------------------------------


def only(kind: type | tuple[type, ...], rewrite: Callable[[Hand, Any], Message]) -> Rewrite:
    """A rewrite applied to messages of ``kind`` alone (others pass unchanged)."""
    def chosen(hand: Hand, msg: Message) -> Message:
        return rewrite(hand, msg) if isinstance(msg, kind) else msg

    return chosen


class RewritingHand(Hand):
    """A ``Hand`` that passes each message it sends through ``rewrite`` before signing
    it. Its own record keeps the rewritten message, as a cheater's would."""

    rewrite: Rewrite | None = None

    def _send(self, msg: Message, now: float) -> None:
        if self.rewrite is not None:
            msg = self.rewrite(self, msg)
        super()._send(msg, now)


def rewriting(rewrite: Rewrite) -> type[Hand]:
    """A ``Hand`` class whose every message, its first key included, goes through
    ``rewrite`` before it is signed (construct it as a ``Hand``)."""
    class Rewriting(RewritingHand):
        pass

    Rewriting.rewrite = staticmethod(rewrite)
    return Rewriting


def tampering(kind: type, tamper: Callable[[Hand, Any], Message]) -> type[Hand]:
    """A ``Hand`` class whose every message of type ``kind`` goes through ``tamper``
    before it is signed (a cheating seat)."""
    return rewriting(only(kind, tamper))


# --- the harness -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conviction:
    """A seat's hand refused something: in which round and phase of that seat, at which
    seat (``by``), whom it blames and for what, and whether the evidence is attributable
    (a signed message of the blamed seat: the hand aborts) or not (then nothing
    happened)."""

    round: int
    phase: str
    by: int
    seat: int
    check: str
    attributable: bool
    detail: str


@dataclass
class SeatCounters:
    """What one seat spent and sent."""

    cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    envelopes: int = 0
    bytes: int = 0
    ops: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    clock: float = 0.0  #: its work so far on the critical-path clock


class Sim:
    """N seats of one hand on a perfect broadcast (see the module doc)."""

    def __init__(self, config: HandConfig, keys: Mapping[int, Ed25519PrivateKey], *,
                 seed: bytes = b"", entropy: Callable[[int], Entropy] | None = None,
                 clock: Clock | None = None, rewrite: Mapping[int, Rewrite] | None = None,
                 checker: AuditChecker | None = None, memo: bool = False) -> None:
        self.config = config
        self.clock = clock
        #: whether seats may skip a proof check another seat of this process passed
        #: (``memo.MEMO``): off by default, so that each seat pays for its own checks
        self.memo = memo
        self.counters = {s: SeatCounters() for s in config.seats}
        self.events: dict[int, list[Event]] = {s: [] for s in config.seats}
        self.convictions: list[Conviction] = []
        self.rounds = 0
        self.log: list[tuple[int, bytes]] = []
        self._sent_at: dict[bytes, float] = {}
        self.hands: dict[int, Hand] = {}
        for s in config.seats:
            source = entropy(s) if entropy is not None else drbg(seed + b"seat" + bytes([s]))
            cheat = (rewrite or {}).get(s)
            self.hands[s] = self._measure(s, None, partial(self._build, s, keys[s], source,
                                                           cheat, checker))

    def _build(self, seat: int, key: Ed25519PrivateKey, entropy: Entropy,
               rewrite: Rewrite | None, checker: AuditChecker | None) -> Hand:
        cls = Hand if rewrite is None else rewriting(rewrite)
        return cls(self.config, seat, key, entropy, 0.0, checker=checker)

    # --- running ----------------------------------------------------------------------

    def live(self, seat: int) -> bool:
        """Whether ``seat``'s hand has not aborted."""
        return self.hands[seat].phase is not Phase.ABORTED

    def flush(self) -> None:
        """Deliver every envelope in rounds until nobody has anything to send."""
        wave = self._collect(self.config.seats)
        while wave:
            self.rounds += 1
            answering: list[int] = []
            for sender, raw in wave:
                for to in self.config.seats:
                    if to != sender and self.live(to):
                        self._deliver(sender, raw, to)
                        answering.append(to)
            wave = self._collect(dict.fromkeys(answering))

    def command(self, seat: int, step: Callable[[Hand], Any]) -> Any:
        """Run one command at ``seat`` (its CPU counted), then deliver what follows."""
        result = self._measure(seat, "play", lambda: step(self.hands[seat]))
        self.flush()
        return result

    def deal(self) -> None:
        """Run the hand until every live seat has its cards (keys, shuffles, deal)."""
        self.flush()

    def finish(self) -> None:
        """Every live seat opens its secrets (in seat order): the audit."""
        for s in self.config.seats:
            hand = self.hands[s]
            if self.live(s) and s not in hand.opened() and hand.phase in (Phase.PLAY,
                                                                          Phase.AUDIT):
                self._measure(s, None, partial(hand.finish, 0.0))
                self.flush()

    def play_scripted(self, *, trumps: bool = True, exchanges: int = 3) -> None:
        """The hand ``lodam bench deal`` plays, the way a Losing Lodam deal uses the
        protocol: the talon's top turned (every seat's share), ``exchanges`` exchange
        windows (the first void) each followed by both traders' re-masks, every dealt
        card played in turn, then the audit."""
        self.deal()
        try:
            self._script(trumps, exchanges)
        except LocalProtocolError:
            if all(self.live(s) for s in self.config.seats):
                raise  # a mistake of the script's, not a hand a cheat stopped
        self.finish()

    def _script(self, trumps: bool, exchanges: int) -> None:
        c = self.config
        holdings = {s: list(c.positions_of(s)) for s in c.seats}
        tricks = min(len(h) for h in holdings.values())
        m = len(c.seats)
        for trick in range(tricks):
            if trick == 0 and trumps and None in c.schedule:
                self.turn(c.schedule.index(None))
            if trick < exchanges and m > 1:
                self._exchange(c.seats[trick % m], c.seats[(trick + 1) % m], holdings,
                               void=trick == 0)
            for s in c.seats:
                position = holdings[s].pop(0)
                self._measure(s, "play", partial(self.hands[s].reveal, position, 0.0))
                self.flush()

    def turn(self, position: int) -> None:
        """Every seat reveals its share of a talon position."""
        for s in self.config.seats:
            self._measure(s, "play", partial(self.hands[s].reveal, position, 0.0))
        self.flush()

    def _exchange(self, a: int, b: int, holdings: dict[int, list[int]], *, void: bool) -> None:
        pa, pb = holdings[a][-1], holdings[b][-1]
        to_b = self._measure(a, "play", lambda: self.hands[a].transfer(pa, b, 0.0))
        to_a = self._measure(b, "play", lambda: self.hands[b].transfer(pb, a, 0.0))
        self.flush()
        if not void:
            holdings[a][-1], holdings[b][-1] = to_a, to_b
        for s in (a, b):
            held = holdings[s]
            made = self._measure(s, "play", partial(self.hands[s].remask, list(held), 0.0))
            if made is not None:
                held[:] = made
        self.flush()

    # --- delivery and counting --------------------------------------------------------

    def _collect(self, seats: Iterable[int]) -> list[tuple[int, bytes]]:
        wave = []
        for s in seats:
            hand = self.hands[s]
            self.events[s].extend(hand.events())
            for raw in hand.outgoing():
                counters = self.counters[s]
                counters.envelopes += 1
                counters.bytes += len(raw)
                self._sent_at[raw] = counters.clock
                self.log.append((s, raw))
                wave.append((s, raw))
        return wave

    def _deliver(self, sender: int, raw: bytes, to: int) -> None:
        counters = self.counters[to]
        counters.clock = max(counters.clock, self._sent_at.get(raw, 0.0))
        self._measure(to, None, lambda: self.hands[to].receive(sender, raw, 0.0))

    def _measure(self, seat: int, label: str | None, step: Callable[[], Any]) -> Any:
        """Run ``step`` as ``seat``'s work: its CPU, multiplications and critical-path
        clock; a refusal becomes a :class:`Conviction` (a local mistake is raised)."""
        counters = self.counters[seat]
        hand = self.hands.get(seat)
        before = hand.phase if hand is not None else Phase.KEYS
        ops = OpCounter.snapshot()
        shared, MEMO.enabled = MEMO.enabled, self.memo
        start = self.clock() if self.clock else 0.0
        result = None
        try:
            result = step()
        except RemoteProtocolError as err:
            self._convicted(seat, err, before)
        finally:
            MEMO.enabled = shared
            spent = (self.clock() - start) if self.clock else 0.0
            after = self.hands[seat].phase if seat in self.hands else Phase.KEYS
            counters.cpu[label or _phase_label(before, after)] += spent
            counters.clock += spent
            now = OpCounter.snapshot()
            counters.ops = [c + n - b for c, n, b in zip(counters.ops, now, ops, strict=True)]
        return result

    def _convicted(self, seat: int, err: RemoteProtocolError, phase: Phase) -> None:
        self.convictions.append(Conviction(self.rounds, phase.value, seat,
                                           err.seat, err.check, err.attributable,
                                           err.blame.detail))

    # --- results ----------------------------------------------------------------------

    def transcript(self) -> Transcript:
        """Every envelope any seat sent, in the order sent (for ``lodam verify``)."""
        return Transcript(self.config, tuple(self.log))

    def blamed(self) -> set[int]:
        """Seats an attributable conviction names."""
        return {c.seat for c in self.convictions if c.attributable}

    def figures(self) -> dict[str, Any]:
        """The counters, as ``lodam bench deal --json`` reports them (milliseconds)."""
        seats = self.config.seats
        n = len(seats)
        per_seat = [sum(self.counters[s].cpu.values()) * 1000 for s in seats]
        ops = [sum(self.counters[s].ops[i] for s in seats) for i in range(4)]
        return {
            "seats": n, "cards": self.config.deck_size, "argument": self.config.argument,
            "rounds": self.rounds, "envelopes": len(self.log),
            "bytes_per_hand": sum(len(raw) for _, raw in self.log),
            "cpu_ms_per_seat": round(statistics.fmean(per_seat), 2),
            "cpu_ms_slowest_seat": round(max(per_seat), 2),
            "cpu_ms_by_phase": {p: round(sum(self.counters[s].cpu[p] for s in seats) * 1000 / n,
                                         2) for p in PHASES},
            "critical_path_ms": round(max(self.counters[s].clock for s in seats) * 1000, 2),
            "scalar_mults": ops[0], "msm_terms": ops[1], "msm_short_terms": ops[2],
            "fixed_base_products": ops[3],
            "equivalent_mults": round(equivalent_mults(*ops)),
            "equivalent_mults_per_seat": round(equivalent_mults(*ops) / n),
            "envelopes_by_seat": {s: self.counters[s].envelopes for s in seats},
            "bytes_by_seat": {s: self.counters[s].bytes for s in seats},
        }


#: The workloads :func:`run` knows.
WORKLOADS = ("deal", "hand")


def run(config: HandConfig, keys: Mapping[int, Ed25519PrivateKey], workload: str = "hand",
        **options: Any) -> Sim:
    """A :class:`Sim` of ``config`` (``options`` as its constructor takes them) after one
    workload: ``deal`` (until every seat holds its cards) or ``hand`` (the scripted hand
    of :meth:`Sim.play_scripted`, audit included)."""
    if workload not in WORKLOADS:
        raise ValueError(f"workload must be one of {WORKLOADS}, not {workload!r}")
    table = Sim(config, keys, **options)
    if workload == "deal":
        table.deal()
    else:
        table.play_scripted()
    return table


def _phase_label(before: Phase, after: Phase) -> str:
    """The phase a call's CPU counts for: the one it moved the seat into (the call that
    completes the keys and starts the first shuffle counts for "shuffle"), but a call
    that ends the deal counts for "deal"."""
    if before is Phase.DEAL:
        return "deal"
    return _LABEL[after if after is not Phase.PLAY else before]
