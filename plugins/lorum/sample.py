"""Hidden Lorum hands that agree with one seat's view: the worlds a search plays in.

A world gives every seat exactly its public hand size, from the cards still in play
that the seat does not see: the seat's own hand is fixed (under ``red_king_blind`` it is
hidden from its owner too, and sampled like the others'), the cards played, laid or set
aside are gone, and no seat gets a card the record proves it does not hold
(:func:`plugins.lorum.spot.exclusions`: shown voids, first-trick proofs, Lorum passes).

Cards are dealt most-constrained first, each to a seat that may hold it, chosen in
proportion to the room left in its hand; a dead end starts the draw again. The true deal
always satisfies the constraints, so a draw succeeds; should many fail in a row (it
takes an adversarial record), the constraints are dropped for that world and the miss is
counted in :attr:`Worlds.relaxed`.

The short First-and-last (two cards each) leaves most of the pack undealt, in the stack:
there a world is only the few hidden cards in hands, and its deal is rebuilt from the
dealt hands (cards played plus cards held) by replaying the tricks, since a public deal
counts every card not out of play as held.
"""

from __future__ import annotations

import random

from lodam_p2p.games.lorum import (
    Card,
    Contract,
    Deal,
    Options,
    PlayerView,
    PublicDeal,
    public_of,
)
from lodam_p2p.games.lorum.actions import PLAYS
from lodam_p2p.games.lorum.cards import CARDS, PACK_MASK, mask_of
from .spot import exclusions

#: Draws tried before a world is dealt without the constraints.
ATTEMPTS = 40


class Worlds:
    """The worlds of one view (see the module docstring)."""

    def __init__(self, view: PlayerView) -> None:
        self.public: PublicDeal = public_of(view)
        self.seat = view.seat
        self.players = view.players
        blind = view.contract is Contract.RED_KING and view.options.red_king_blind
        own = 0 if blind else mask_of(view.hand)
        self.own: tuple[Card, ...] = () if blind else tuple(view.hand)
        self.sizes = tuple(view.hand_sizes)
        self.hidden_seats = tuple(
            s for s in range(view.players) if (blind or s != view.seat) and self.sizes[s]
        )
        self.unknown = PACK_MASK & ~mask_of(view.played) & ~own
        self.excluded = exclusions(view)
        cards = [i for i in range(32) if self.unknown >> i & 1]
        self._allowed = {
            i: tuple(s for s in self.hidden_seats if not self.excluded[s] >> i & 1)
            for i in cards
        }
        self._cards = cards
        self.relaxed = 0  #: worlds dealt without the constraints (should stay 0)
        held = sum(self.sizes[s] for s in self.hidden_seats)
        self.short = held < len(cards)
        self._options: Options = view.options
        self._contract, self._dealer = view.contract, view.dealer
        self._events = [(s, c) for t in view.tricks for s, c in t.cards]
        self._events += list(view.current_trick)

    def deal(self, rng: random.Random) -> Deal:
        """A full deal at the view's point in one sampled world."""
        hands = self.sample(rng)
        if not self.short:
            return Deal.from_public(self.public, hands)
        dealt = [[c for s, c in self._events if s == seat] + hands[seat]
                 for seat in range(self.players)]
        deal = Deal.from_hands(self._options, self._contract, self._dealer, dealt)
        for seat, card in self._events:
            deal.apply(PLAYS[seat][card.index])
        return deal

    def sample(self, rng: random.Random) -> list[list[Card]]:
        """One world: every seat's current hand."""
        for _ in range(ATTEMPTS):
            hands = self._draw(rng, self._allowed)
            if hands is not None:
                return hands
        self.relaxed += 1
        loose = {i: self.hidden_seats for i in self._cards}
        hands = self._draw(rng, loose)
        assert hands is not None
        return hands

    def _draw(
        self, rng: random.Random, allowed: dict[int, tuple[int, ...]]
    ) -> list[list[Card]] | None:
        cards = self._cards[:]
        rng.shuffle(cards)
        if not self.short:
            cards.sort(key=lambda i: len(allowed[i]))
        room = list(self.sizes)
        if self.own:
            room[self.seat] = 0
        hands: list[list[Card]] = [[] for _ in range(self.players)]
        for index in cards:
            seats = [s for s in allowed[index] if room[s]]
            if not seats:
                if self.short:
                    continue  # stays in the undealt stack
                return None
            total = sum(room[s] for s in seats)
            pick = rng.randrange(total)
            for seat in seats:
                pick -= room[seat]
                if pick < 0:
                    break
            hands[seat].append(CARDS[index])
            room[seat] -= 1
        if any(room):
            return None
        if self.own:
            hands[self.seat] = list(self.own)
        return hands
