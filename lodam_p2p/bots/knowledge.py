"""What a seat can work out from its view: cards gone, voids shown, cards it traded.

Everything here is derived from a Lodam ``PlayerView`` alone, so a bot
that uses it reads no hidden information.

*Voids.* A seat that did not follow the led suit has shown out of it (it renounced).
It stays void in that suit unless it may have received a card of it in an exchange
that went through (see :func:`_voids`).

*Unseen cards.* The pack of the deal minus the cards played (completed tricks and the
trick on the table), minus the seat's own hand, minus the turned trump card (it went
back face down on top of the talon, so nobody holds it). The rest is in other hands or
in the talon.

*Traded cards.* A card this seat gave in an exchange that went through sits in the
acceptor's (or offerer's) hand until it is played.
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lodam import (
    FULL_PACK,
    SHORT_PACK,
    Card,
    PlayerView,
    Suit,
    rank_strength,
)


def strength(card: Card, view: PlayerView) -> int:
    """How strong ``card`` is within its suit under the table's rank order."""
    return rank_strength(card, view.options.rank_order)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The derived facts of one view (build with :meth:`of`)."""

    played: frozenset[Card]  #: every card played this deal, the trick on the table included
    unseen: frozenset[Card]  #: cards in other hands or the talon (not the turned trump)
    voids: tuple[frozenset[Suit], ...]  #: per seat, suits it has shown out of
    known_held: tuple[frozenset[Card], ...]  #: per seat, cards we know it holds

    @classmethod
    def of(cls, view: PlayerView) -> Knowledge:
        """Work out the facts of ``view``."""
        played = {card for trick in view.tricks for _seat, card in trick.cards}
        played.update(card for _seat, card in view.current_trick)
        active = sum(view.active)
        pack = SHORT_PACK if view.options.pack_size(active) == len(SHORT_PACK) else FULL_PACK
        unseen = set(pack) - played - set(view.hand)
        if view.trump_card is not None:
            unseen.discard(view.trump_card)
        return cls(
            played=frozenset(played),
            unseen=frozenset(unseen),
            voids=_voids(view),
            known_held=_known_held(view, played),
        )

    def unseen_in(self, suit: Suit) -> list[Card]:
        """Unseen cards of ``suit``."""
        return [card for card in self.unseen if card.suit == suit]

    def is_void(self, seat: int, suit: Suit) -> bool:
        """Whether ``seat`` has shown out of ``suit`` (and received nothing since)."""
        return suit in self.voids[seat]


def _voids(view: PlayerView) -> tuple[frozenset[Suit], ...]:
    """Suits each seat has shown out of, forgotten when it may have received one since.

    A renounce in trick ``t`` stands until the seat trades in an exchange that went
    through in a window after that trick (``before_trick > t``): the card it received
    may be of that suit. Windows before the renounce change nothing.
    """
    voids: list[set[Suit]] = [set() for _ in range(view.players)]
    played = [*(trick.cards for trick in view.tricks), view.current_trick]
    last_trade = [-1] * view.players
    for exchange in view.exchanges:
        if exchange.acceptor is not None and not exchange.void:
            for seat in (exchange.offerer, exchange.acceptor):
                last_trade[seat] = max(last_trade[seat], exchange.before_trick)
    for index, cards in enumerate(played):
        for seat, suit in _renounces(cards):
            if last_trade[seat] <= index:
                voids[seat].add(suit)
    return tuple(frozenset(suits) for suits in voids)


def _renounces(cards: tuple[tuple[int, Card], ...]) -> list[tuple[int, Suit]]:
    if not cards:
        return []
    led = cards[0][1].suit
    return [(seat, led) for seat, card in cards[1:] if card.suit != led]


def _known_held(view: PlayerView, played: set[Card]) -> tuple[frozenset[Card], ...]:
    held: list[set[Card]] = [set() for _ in range(view.players)]
    for exchange in view.exchanges:
        if exchange.acceptor is None or exchange.void or exchange.given is None:
            continue
        other = exchange.acceptor if exchange.offerer == view.seat else exchange.offerer
        if exchange.given not in played:
            held[other].add(exchange.given)
    return tuple(frozenset(cards) for cards in held)
