"""Test support: a table of in-process seats, forged envelopes (seeded entropy and
identities come from the shipped harness, ``lodam_p2p.fairdeal.sim``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import (
    Event,
    Hand,
    HandConfig,
    Phase,
    RemoteProtocolError,
    deal_schedule,
)
from lodam_p2p.fairdeal.messages import Message, encode
from lodam_p2p.fairdeal.sim import drbg, identity, raw_public
from lodam_p2p.fairdeal.wire import GENESIS, seal

TABLE = b"test-table-0001!"


def make_config(seats: int, deck: int = 52, *, hand: int = 1, table: bytes = TABLE,
                hand_size: int | None = None, timeout: float = 30.0,
                proofs: bool = True, argument: str | None = None) -> HandConfig:
    """A config for seats 0 … seats−1 dealt round-robin (``proofs=False``: the argument
    ``none``, shuffles and re-masks checked only at the audit, the protocol kept for
    comparison; ``argument`` names another shuffle argument)."""
    order = tuple(range(seats))
    size = hand_size if hand_size is not None else min(49 // seats, (deck - 1) // seats)
    ids = tuple(raw_public(identity(s)) for s in order)
    name = argument if argument is not None else "tw" if proofs else "none"
    return HandConfig(table, hand, order, ids, deck, deal_schedule(order, size, deck), timeout,
                      name)


@dataclass
class Table:
    """Seats in one process, connected by a perfect (or test-controlled) broadcast."""

    config: HandConfig
    hands: dict[int, Hand]
    events: dict[int, list[Event]] = field(default_factory=dict)
    errors: dict[int, list[RemoteProtocolError]] = field(default_factory=dict)
    now: float = 0.0

    @classmethod
    def build(cls, config: HandConfig, seed: bytes = b"", hand_cls: Callable[..., Hand] = Hand,
              cheaters: dict[int, Callable[..., Hand]] | None = None, checker=None) -> Table:
        hands = {}
        for s in config.seats:
            factory = (cheaters or {}).get(s, hand_cls)
            hands[s] = factory(config, s, identity(s), drbg(seed + bytes([s])), 0.0,
                               checker=checker)
        table = cls(config, hands)
        for s in config.seats:
            table.events[s], table.errors[s] = [], []
        return table

    def live(self, seat: int) -> bool:
        return self.hands[seat].phase is not Phase.ABORTED

    def deliver(self, sender: int, raw: bytes, to: int) -> None:
        """Deliver one envelope, recording a remote error instead of raising it."""
        if not self.live(to):
            return
        try:
            self.hands[to].receive(sender, raw, self.now)
        except RemoteProtocolError as err:
            self.errors[to].append(err)
        self.events[to].extend(self.hands[to].events())

    def broadcast(self, sender: int, raw: bytes) -> None:
        for to in self.config.seats:
            if to != sender:
                self.deliver(sender, raw, to)

    def flush(self) -> None:
        """Deliver everything outgoing until quiet."""
        moved = True
        while moved:
            moved = False
            for s, hand in self.hands.items():
                self.events[s].extend(hand.events())
                for raw in hand.outgoing():
                    moved = True
                    self.broadcast(s, raw)

    def cards(self, seat: int) -> dict[int, int]:
        return dict(self.hands[seat].cards)

    def blamed(self) -> set[int]:
        """Every seat some seat's error blames (attributable errors only)."""
        return {e.seat for errs in self.errors.values() for e in errs if e.attributable}

    def checks(self) -> set[str]:
        return {e.check for errs in self.errors.values() for e in errs}

    def play_through(self) -> None:
        """A short honest hand: a play, the talon top, an exchange both ways with both
        re-masks, the receiver playing the card it received (at its new position), then
        the audit."""
        c = self.config
        self.flush()
        first = c.positions_of(c.seats[0])[0]
        self.hands[c.seats[0]].reveal(first, self.now)
        self.flush()
        top = c.schedule.index(None)
        for s in c.seats:
            self.hands[s].reveal(top, self.now)
        self.flush()
        a, b = c.seats[1], c.seats[2 % len(c.seats)]
        pa, pb = c.positions_of(a)[0], c.positions_of(b)[0]
        card = self.hands[a].cards[pa]
        new = self.trade(a, b, pa, pb)
        self.hands[b].reveal(self.position_of(b, card, new[b]), self.now)
        self.flush()
        self.finish()

    def trade(self, a: int, b: int, pa: int, pb: int, *, void: bool = False,
              holdings: dict[int, set[int]] | None = None) -> dict[int, tuple[int, ...]]:
        """An exchange as the session makes it: both transfers, then both traders
        re-mask their whole holding (the card the other handed over in it unless
        ``void``). Returns each trader's new positions; ``holdings`` (seat → positions)
        is updated."""
        held = holdings if holdings is not None else {
            s: set(self.config.positions_of(s)) for s in self.config.seats}
        to_b = self.hands[a].transfer(pa, b, self.now)
        to_a = self.hands[b].transfer(pb, a, self.now)
        self.flush()
        if not void:
            held[a] = (held[a] - {pa}) | {to_a}
            held[b] = (held[b] - {pb}) | {to_b}
        new = {s: self.hands[s].remask(sorted(held[s]), self.now) for s in (a, b)}
        for s in (a, b):
            held[s] = set(new[s])
        self.flush()
        return new

    def position_of(self, seat: int, card: int, among: tuple[int, ...]) -> int:
        """Where ``seat`` holds ``card`` among ``among`` (from its own knowledge)."""
        return next(p for p in among if self.hands[seat].cards[p] == card)

    def finish(self) -> None:
        for s in self.config.seats:
            if self.live(s):
                self.hands[s].finish(self.now)
        self.flush()


def forge(config: HandConfig, seat: int, msg: Message | bytes, seq: int, *,
          prev: bytes = GENESIS, key: Ed25519PrivateKey | None = None) -> bytes:
    """An envelope as ``seat`` (or whoever holds ``key``) could sign it."""
    body = msg if isinstance(msg, bytes) else encode(msg)
    return seal(key or identity(seat), body, table_id=config.table_id, hand=config.hand,
                seat=seat, seq=seq, prev=prev)
