"""This seat's own decisions in a hand: its cards, its view, and the message for an action.

A mixin of :class:`~lodam_p2p.session.handplay.HandPlay`. A card is played by naming
its position and revealing it; an answer hands its position over by a private transfer;
an offer commits (salted) to the position it puts down. The positions are this seat's
current ones: after an exchange, those of its re-mask.
"""

from __future__ import annotations

from dataclasses import replace

from lodam_p2p.fairdeal import Hand
from lodam_p2p.fairdeal.group import Entropy
from lodam_p2p.rules import (
    Action,
    Answer,
    Card,
    Declare,
    Offer,
    Play,
    PlayerView,
    PublicDeal,
    RulesError,
    Swallow,
    legal_actions_for,
)
from lodam_p2p.rules.view import build_view
from lodam_p2p.session.audit import DealSetup, Logged, offer_commitment
from lodam_p2p.session.wire import Body, Msg


class OwnMoves:
    """This seat's cards, view and actions (see the module docstring)."""

    setup: DealSetup
    seat: int | None
    me: int | None
    entropy: Entropy
    fair: Hand
    public: PublicDeal
    pack: tuple[Card, ...]
    holdings: dict[int, set[int]]
    step: int
    log: list[Logged]
    my_offers: dict[int, tuple[int, bytes]]
    trades: list[tuple[Card | None, Card | None] | None]
    _offer_step: int
    _mine: Action | None

    def _flush(self) -> None:
        raise NotImplementedError

    def _body(self, kind: Msg, args: tuple[object, ...], envelopes: list[bytes]) -> Body:
        raise NotImplementedError

    def hand_cards(self) -> tuple[Card, ...]:
        """This seat's current hand, in card-index order."""
        if self.me is None:
            return ()
        cards = [self.pack[self.fair.cards[pos]] for pos in self.holdings[self.me]
                 if pos in self.fair.cards]
        return tuple(sorted(cards, key=lambda card: card.index))

    def view(self) -> PlayerView:
        """What this seat may know now (never another seat's hidden card)."""
        assert self.seat is not None
        view = build_view(self.public, self.seat, self.hand_cards(), (), ())
        exchanges = tuple(
            x if t is None else replace(x, given=t[0], received=t[1])
            for x, t in zip(self.public.exchanges, self.trades, strict=True))
        view = replace(view, exchanges=exchanges)
        return replace(view, legal=tuple(legal_actions_for(view)))

    def act(self, action: Action, now: float) -> Body:
        """The message for this seat's decided ``action`` (checked legal by the caller)."""
        self._flush()
        self._mine = action
        if isinstance(action, Play):
            position = self._position_of(action.card)
            self.fair.reveal(position, now)
            return self._body(Msg.PLAY, (position,), self.fair.outgoing())
        if isinstance(action, Offer):
            return self._offer_body(action)
        if isinstance(action, Answer):
            if action.card is None:
                return self._body(Msg.ANSWER, (None,), [])
            offer = self.public.pending_offer
            assert offer is not None
            position = self._position_of(action.card)
            self.fair.transfer(position, offer.offerer, now)
            return self._body(Msg.ANSWER, (position,), self.fair.outgoing())
        if isinstance(action, Swallow):
            return self._body(Msg.SWALLOW, (action.take,), [])
        if isinstance(action, Declare):
            return self._body(Msg.DECLARE, (action.out, action.challenge), [])
        return self._body(Msg.CHALLENGE, (action.target,), [])

    def _offer_body(self, action: Offer) -> Body:
        if action.card is None or action.card.kind is None:
            return self._body(Msg.OFFER, (None, None), [])
        position = self._position_of(action.card)
        salt = self.entropy(16)
        self.my_offers[self.step] = (position, salt)
        commitment = offer_commitment(self.setup, self.seat or 0, self.step, position, salt)
        return self._body(Msg.OFFER, (action.card.kind.value, commitment), [])

    def _position_of(self, card: Card) -> int:
        assert self.me is not None
        for position in self.holdings[self.me]:
            if self.pack[self.fair.cards[position]] == card:
                return position
        raise RulesError(f"{card} is not in this seat's hand")

    def _my_trade(self, index: int) -> tuple[Card | None, Card | None] | None:
        record = self.public.exchanges[index]
        if self.me is None or self.me not in (record.offerer, record.acceptor):
            return None
        entry = self.log[-1]
        if record.acceptor is None:
            position = self.my_offers[self._offer_step][0]
            return self.pack[self.fair.cards[position]], None
        mine_pos, theirs_pos, _void = entry.args
        given, got = self.pack[self.fair.cards[mine_pos]], self.pack[self.fair.cards[theirs_pos]]
        return (got, given) if self.me == record.offerer else (given, got)
