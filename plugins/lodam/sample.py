"""Sampling the hidden cards: worlds that agree with everything one seat knows.

What a seat knows (all from its :class:`~lodam_p2p.games.lodam.PlayerView`):

- its own hand, every card played, and the turned trump card (back on the talon's top,
  so in nobody's hand);
- **voids**: a seat that renounced a suit holds none of it — unless it has since taken
  part in an exchange that went through with another seat, which may have handed it a
  card of that suit (an exchange with us hands it only the card we gave, which we
  know);
- **cards it traded**: after an exchange that went through, the other trader holds the
  card we gave; after a void exchange (same suit) it holds its own card again, which we
  saw — in both cases until it plays it or trades again in that kind;
- **offers' kinds**: whoever offered, or accepted, a coat or a card held one then, so it
  holds one still or has played one since (checked on the sampled world; a world that
  fails is drawn again a few times); during our answer, the offerer holds a card of
  that kind (drawn first among those it may hold), and the one on the table is taken
  to be its least guarded one — the usual reason to offer;
- hand sizes and the talon's size.

:func:`sample` deals the unseen cards to the other hands and the talon: pinned cards
first, then the most constrained hands take the first cards they may hold from a
shuffled pool. When that runs into a corner (late in a deal, with many voids), an exact
fallback assigns card by card and keeps every remaining step feasible by Hall's
condition over the four suits.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from lodam_p2p.games.lodam import (
    FULL_MASK,
    SHORT_MASK,
    SUIT_MASK,
    SUIT_OF,
    PlayerView,
    bits,
    kind_mask,
    mask_of,
)
from .replay import Window

#: Draws of a world before the offers' kinds are given up on for this world.
KIND_TRIES = 6
#: Quick greedy attempts before the exact fallback.
GREEDY_TRIES = 8


@dataclass(frozen=True, slots=True)
class KindCheck:
    """``seats`` held a card of ``kind_mask`` at an exchange: each holds one now or has
    played one since (``played``, per seat); with ``same_suit`` (a void exchange between
    two others) both of one suit."""

    seats: tuple[int, ...]
    kind_mask: int
    played: tuple[int, ...]
    same_suit: bool = False

    def holds(self, hands: list[int]) -> bool:
        """Whether the sampled ``hands`` pass this check."""
        kind = self.kind_mask
        had = [(hands[s] | p) & kind for s, p in zip(self.seats, self.played, strict=True)]
        if not self.same_suit:
            return all(had)
        first, second = had
        return any(first & m and second & m for m in SUIT_MASK)


@dataclass(frozen=True, slots=True)
class World:
    """One sampled deal: every current hand, the talon's top, the offered card."""

    hands: list[int]
    talon_top: int
    offer_card: int  #: -1 unless an offer is on the table


@dataclass(frozen=True, slots=True)
class Constraints:
    """What the seat knows about the hidden cards (build with :meth:`of`)."""

    seat: int
    own: int  #: own hand
    unseen: int  #: cards in other hands or the talon, the turned trump excluded
    sizes: tuple[int, ...]  #: cards each other seat holds (0 for ours and seats not dealt)
    talon_size: int
    trump_card: int  #: index of the turned talon card, -1 before the turn
    void_suits: tuple[frozenset[int], ...]  #: per seat
    pinned: tuple[int, ...]  #: per seat, cards it surely holds
    handed: tuple[int, ...]  #: per seat, unseen cards we handed it (voids do not bar them)
    checks: tuple[KindCheck, ...]
    offer: tuple[int, int] | None  #: (offerer, kind mask) of the offer on the table

    @classmethod
    def of(cls, view: PlayerView, windows: tuple[Window, ...]) -> Constraints:
        """Work out the constraints of ``view``; ``windows`` bound each exchange's
        window (see :mod:`plugins.lodam.replay`)."""
        n, me = view.players, view.seat
        played_at = _plays_by_trick(view)
        played = 0
        for _t, _s, card in played_at:
            played |= 1 << card
        pack = SHORT_MASK if view.options.pack_size(sum(view.active)) == 32 else FULL_MASK
        own = mask_of(view.hand)
        trump = -1 if view.trump_card is None else view.trump_card.index
        unseen = pack & ~played & ~own & ~(0 if trump < 0 else 1 << trump)
        pinned, handed = _pinned(view, unseen)
        sizes = tuple(0 if s == me else view.hand_sizes[s] for s in range(n))
        offer = None
        if view.pending_offer is not None:
            offer = (view.pending_offer.offerer, kind_mask(view.pending_offer.kind))
        return cls(
            seat=me,
            own=own,
            unseen=unseen,
            sizes=sizes,
            talon_size=view.talon_size,
            trump_card=trump,
            void_suits=_voids(view, windows, played_at),
            pinned=pinned,
            handed=handed,
            checks=_kind_checks(view, windows, played_at),
            offer=offer,
        )

    def allowed(self, seat: int) -> int:
        """Cards ``seat`` may hold."""
        mask = self.unseen
        for suit in self.void_suits[seat]:
            mask &= ~SUIT_MASK[suit]
        return mask | self.pinned[seat] | self.handed[seat]


def _plays_by_trick(view: PlayerView) -> list[tuple[int, int, int]]:
    """(trick index, seat, card index) of every card played, the open trick last."""
    out = [(t, s, c.index) for t, trick in enumerate(view.tricks) for s, c in trick.cards]
    out.extend((len(view.tricks), s, c.index) for s, c in view.current_trick)
    return out


def _renounces(view: PlayerView) -> list[tuple[int, int, int]]:
    """(trick index, seat, suit) of every renounce."""
    out: list[tuple[int, int, int]] = []
    tricks = [trick.cards for trick in view.tricks] + [view.current_trick]
    for t, cards in enumerate(tricks):
        if cards:
            led = cards[0][1].suit
            out.extend((t, s, int(led)) for s, c in cards[1:] if c.suit != led)
    return out


def _voids(
    view: PlayerView, windows: tuple[Window, ...], played_at: list[tuple[int, int, int]]
) -> tuple[frozenset[int], ...]:
    """Suits each seat has shown out of and cannot have been handed since."""
    del played_at
    voids: list[set[int]] = [set() for _ in range(view.players)]
    for trick, seat, suit in _renounces(view):
        refilled = any(
            e.acceptor is not None and not e.void and seat in (e.offerer, e.acceptor)
            and view.seat not in (e.offerer, e.acceptor) and high > trick
            for e, (_low, high) in zip(view.exchanges, windows, strict=True)
        )
        if not refilled:
            voids[seat].add(suit)
    voids[view.seat] = set()
    return tuple(frozenset(v) for v in voids)


def _pinned(view: PlayerView, unseen: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Cards we know another seat holds — what we traded to it, or saw come back to
    it — and every unseen card we ever handed a seat (it may hold it, void or not)."""
    pinned, handed = [0] * view.players, [0] * view.players
    exchanges = view.exchanges
    for i, e in enumerate(exchanges):
        if e.acceptor is None or e.given is None or e.received is None:
            continue
        other = e.acceptor if e.offerer == view.seat else e.offerer
        card = e.received if e.void else e.given
        moved_on = any(
            later.acceptor is not None and not later.void and later.kind is e.kind
            and other in (later.offerer, later.acceptor)
            for later in exchanges[i + 1 :]
        )
        if unseen >> card.index & 1:
            handed[other] |= 1 << card.index
            if not moved_on:
                pinned[other] |= 1 << card.index
    return tuple(pinned), tuple(handed)


def _kind_checks(
    view: PlayerView, windows: tuple[Window, ...], played_at: list[tuple[int, int, int]]
) -> tuple[KindCheck, ...]:
    """The offers' kinds, as checks on a sampled world (see :class:`KindCheck`)."""
    checks: list[KindCheck] = []
    exchanges = view.exchanges
    for i, (e, (low, _high)) in enumerate(zip(exchanges, windows, strict=True)):
        if view.seat in (e.offerer, e.acceptor):
            continue  # we saw the cards: pinned instead
        of_kind = kind_mask(e.kind)
        parties = [s for s in (e.offerer, e.acceptor) if s is not None]
        fresh = [
            s for s in parties
            if not any(
                later.acceptor is not None and not later.void
                and s in (later.offerer, later.acceptor)
                for later in exchanges[i + 1 :]
            )
        ]
        since = [_played_since(played_at, s, low) for s in fresh]
        if e.void and len(fresh) == 2:
            checks.append(KindCheck(tuple(fresh), of_kind, tuple(since), same_suit=True))
        else:
            pairs = zip(fresh, since, strict=True)
            checks.extend(KindCheck((s,), of_kind, (p,)) for s, p in pairs)
    return tuple(checks)


def _played_since(played_at: list[tuple[int, int, int]], seat: int, trick: int) -> int:
    mask = 0
    for t, s, card in played_at:
        if s == seat and t >= trick:
            mask |= 1 << card
    return mask


# -- drawing a world -------------------------------------------------------------------


def sample(c: Constraints, rng: random.Random) -> World:
    """A world consistent with ``c`` (see the module docstring)."""
    return Sampler(c).sample(rng)


class Sampler:
    """Draws the worlds of one :class:`Constraints`, with what every draw shares worked
    out once (the same draws as :func:`sample`, for a search's thousands of worlds)."""

    __slots__ = ("allowed", "c", "free", "hands", "need", "order", "pool")

    def __init__(self, c: Constraints) -> None:
        self.c = c
        n = len(c.sizes)
        hands = [c.pinned[s] for s in range(n)]
        hands[c.seat] = c.own
        free = c.unseen
        for mask in c.pinned:
            free &= ~mask
        self.hands, self.free = hands, free
        self.allowed = [c.allowed(s) for s in range(n)]
        self.need = [0 if s == c.seat else c.sizes[s] - hands[s].bit_count() for s in range(n)]
        self.pool = bits(free)
        self.order = sorted(range(n), key=lambda s: -len(c.void_suits[s]))

    def sample(self, rng: random.Random) -> World:
        """A world consistent with the constraints."""
        c = self.c
        world = None
        for _ in range(KIND_TRIES):
            world = self._draw(rng)
            if all(check.holds(world.hands) for check in c.checks):
                return world
        assert world is not None
        return world

    def _draw(self, rng: random.Random) -> World:
        c = self.c
        hands = list(self.hands)
        offer_card = -1
        if c.offer is None:
            need, pool = self.need, list(self.pool)
        else:
            free = self.free
            offerer, of_kind = c.offer
            room = c.sizes[offerer] > hands[offerer].bit_count()
            choices = bits(of_kind & (hands[offerer] | (self.allowed[offerer] & free
                                                         if room else 0)))
            offer_card = rng.choice(choices)
            hands[offerer] |= 1 << offer_card
            free &= ~(1 << offer_card)
            need = [0 if s == c.seat else c.sizes[s] - hands[s].bit_count()
                    for s in range(len(c.sizes))]
            pool = bits(free)
        for _ in range(GREEDY_TRIES):
            rng.shuffle(pool)
            dealt = _greedy(pool, need, self.allowed, self.order)
            if dealt is not None:
                return _likely_offer(c, _finish(c, hands, dealt, offer_card), rng)
        world = _finish(c, hands, _exact(pool, need, c.void_suits, rng), offer_card)
        return _likely_offer(c, world, rng)


def _likely_offer(c: Constraints, world: World, rng: random.Random) -> World:
    """The offered card: the offerer's least guarded card of the kind (the shortest
    suit; ties at random), the usual reason to offer."""
    if c.offer is None:
        return world
    offerer, of_kind = c.offer
    hand = world.hands[offerer]
    cards = bits(hand & of_kind)
    rng.shuffle(cards)
    card = min(cards, key=lambda i: (hand & SUIT_MASK[SUIT_OF[i]]).bit_count())
    return World(world.hands, world.talon_top, card)


def _greedy(
    pool: list[int], need: list[int], allowed: list[int], order: list[int]
) -> tuple[list[int], list[int]] | None:
    """Most constrained seats first (``order``) take the first cards they may hold; the
    talon gets the rest. ``None`` if a seat cannot be filled."""
    gains = [0] * len(need)
    left = pool
    left_mask = 0
    for card in pool:
        left_mask |= 1 << card
    for seat in order:
        want = need[seat]
        if not want:
            continue
        may = allowed[seat]
        if not left_mask & ~may:  # the seat may hold every card left: the first ones
            if len(left) < want:
                return None
            gained = 0
            for card in left[:want]:
                gained |= 1 << card
            gains[seat] |= gained
            left_mask &= ~gained
            left = left[want:]
            continue
        rest, got = [], 0
        for card in left:
            if got < want and may >> card & 1:
                gains[seat] |= 1 << card
                left_mask &= ~(1 << card)
                got += 1
            else:
                rest.append(card)
        if got < want:
            return None
        left = rest
    return gains, left


def _exact(
    pool: list[int], need: list[int], voids: tuple[frozenset[int], ...], rng: random.Random
) -> tuple[list[int], list[int]]:
    """Card by card, keeping Hall's condition over suits (the talon takes any suit)."""
    holders = [s for s in range(len(need)) if need[s]]
    cap = {s: need[s] for s in holders}
    talon_cap = len(pool) - sum(cap.values())
    supply = [sum(1 for card in pool if SUIT_OF[card] == suit) for suit in range(4)]
    gains = [0] * len(need)
    talon: list[int] = []
    order = pool[:]
    rng.shuffle(order)
    for card in order:
        suit = SUIT_OF[card]
        supply[suit] -= 1
        options = [s for s in holders if cap[s] and suit not in voids[s]]
        rng.shuffle(options)
        options.append(-1)  # the talon
        for holder in options:
            if holder < 0 and talon_cap == 0:
                continue
            if holder >= 0:
                cap[holder] -= 1
            else:
                talon_cap -= 1
            if _feasible(supply, cap, talon_cap, voids):
                break
            if holder >= 0:
                cap[holder] += 1
            else:
                talon_cap += 1
        else:
            raise ValueError("no world fits what this seat knows")
        if holder >= 0:
            gains[holder] |= 1 << card
        else:
            talon.append(card)
    return gains, talon


def _feasible(
    supply: list[int], cap: dict[int, int], talon_cap: int, voids: tuple[frozenset[int], ...]
) -> bool:
    """Hall's condition: every set of suits fits in the holders that take one of them."""
    for subset in range(1, 16):
        suits = [s for s in range(4) if subset >> s & 1]
        wanted = sum(supply[s] for s in suits)
        room = talon_cap + sum(
            c for seat, c in cap.items() if any(s not in voids[seat] for s in suits)
        )
        if wanted > room:
            return False
    return True


def _finish(
    c: Constraints, hands: list[int], dealt: tuple[list[int], list[int]], offer_card: int
) -> World:
    gains, talon = dealt
    for seat, gained in enumerate(gains):
        hands[seat] |= gained
    top = c.trump_card if c.trump_card >= 0 else (talon[0] if talon else -1)
    return World(hands, top, offer_card)
