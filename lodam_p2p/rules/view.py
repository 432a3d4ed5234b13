"""What one seat may know about a deal (its *view*), and legal moves computed from it.

A view holds the public record plus the seat's own hand and its own exchanges. It never
holds another seat's hidden card: other hands, the talon below the turned trump card, or
the cards of exchanges the seat took no part in.
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.rules.actions import Action, Decision
from lodam_p2p.rules.cards import Card, Suit
from lodam_p2p.rules.options import Options
from lodam_p2p.rules.records import PublicExchange, PublicOffer, TrickRecord


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of the deal at one moment."""

    seat: int
    players: int
    dealer: int
    options: Options
    lives: tuple[int, ...]
    active: tuple[bool, ...]  #: dealt in this deal
    hand: tuple[Card, ...]  #: own current hand, in index order
    hand_sizes: tuple[int, ...]
    talon_size: int
    trump: Suit | None  #: public once turned
    trump_card: Card | None
    leader: int
    current_trick: tuple[tuple[int, Card], ...]
    tricks: tuple[TrickRecord, ...]
    exchanges: tuple[PublicExchange, ...]
    pending_offer: PublicOffer | None  #: the offer on the table during ANSWER decisions
    points: tuple[int, ...]  #: per seat, from the public tricks
    to_act: int | None
    awaiting: Decision | None
    legal: tuple[Action, ...]  #: non-empty only when to_act == seat
