"""What one seat may know about a deal (its *view*), and legal moves computed from it.

A view holds the public record plus the seat's own hand and its own exchanges. It never
holds another seat's hidden card: other hands, the talon below the turned trump card, or
the cards of exchanges the seat took no part in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from lodam_p2p.games.lodam import legal
from lodam_p2p.games.lodam.actions import Action, Decision
from lodam_p2p.games.lodam.cards import CARD_SUIT, Card, Suit, mask_of
from lodam_p2p.games.lodam.options import Options
from lodam_p2p.games.lodam.public import DealRecord
from lodam_p2p.games.lodam.records import ExchangeRecord, PublicExchange, PublicOffer, TrickRecord


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


def build_view(
    public: DealRecord[Any],
    seat: int,
    hand: tuple[Card, ...],
    records: Sequence[ExchangeRecord],
    legal_now: tuple[Action, ...],
) -> PlayerView:
    """The view of ``seat``: the public record of ``public`` (a public deal, or a full
    deal whose hidden part is left out) plus its own ``hand`` and its own exchanges.

    ``records`` are the true exchange records known for the *last* ``len(records)``
    public exchanges (all of them for a deal followed from its start)."""
    return PlayerView(
        seat=seat,
        players=public.players,
        dealer=public.dealer,
        options=public.options,
        lives=public.lives,
        active=public.active,
        hand=hand,
        hand_sizes=tuple(public.hand_sizes),
        talon_size=public.talon_size,
        trump=public.trump,
        trump_card=public.trump_card,
        leader=public.leader,
        current_trick=tuple(public.current_trick),
        tricks=tuple(public.tricks),
        exchanges=_own_exchanges(public.public_exchanges(), records, seat),
        pending_offer=public.pending_offer,
        points=tuple(public.points),
        to_act=public.to_act,
        awaiting=public.awaiting,
        legal=legal_now,
    )


def _own_exchanges(
    shown: Sequence[PublicExchange], records: Sequence[ExchangeRecord], seat: int
) -> tuple[PublicExchange, ...]:
    """Public exchanges, with ``given``/``received`` filled in where ``seat`` traded."""
    offset = len(shown) - len(records)
    out = list(shown)
    for i, record in enumerate(records):
        if seat == record.offerer:
            out[offset + i] = replace(out[offset + i], given=record.offer, received=record.accept)
        elif seat == record.acceptor:
            out[offset + i] = replace(out[offset + i], given=record.accept, received=record.offer)
    return tuple(out)


def legal_actions_for(view: PlayerView) -> list[Action]:
    """The legal actions of the viewing seat, from its view alone; the same list as
    ``Deal.legal_actions()`` when that seat is to act, else empty."""
    seat, decision = view.seat, view.awaiting
    if view.to_act != seat or decision is None:
        return []
    hand = mask_of(view.hand)
    if decision is Decision.PLAY:
        led = CARD_SUIT[view.current_trick[0][1].index] if view.current_trick else -1
        return list(legal.plays(seat, hand, led))
    if decision is Decision.OFFER:
        return list(legal.offers(seat, hand))
    if decision is Decision.ANSWER:
        assert view.pending_offer is not None
        return list(legal.answers(seat, hand, view.pending_offer.kind))
    if decision is Decision.SWALLOW:
        return list(legal.swallows(seat))
    targets = [t for t in range(view.players) if view.active[t] and t != seat]
    if decision is Decision.DECLARE:
        out_at = view.options.out_at
        return list(legal.declarations(seat, view.points[seat], out_at, targets))
    return list(legal.challenges(seat, targets))
