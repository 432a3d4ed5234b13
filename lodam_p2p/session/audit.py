"""The end-of-hand rules audit: the full deal replayed over the hand's public actions.

During a hand every peer tracks only the :class:`~lodam_p2p.rules.PublicDeal`: a played
card is the card its position revealed, an offer is a kind and a commitment, an
exchange is two positions and an announced outcome. Once every seat has opened its
secrets the fair-deal audit knows the card at every position, and this module replays
the hand through the full :class:`~lodam_p2p.rules.Deal`, which checks what nobody could
check before: that every renounce was allowed (a *revoke* otherwise, RULES.md 8), that
every offered and accepted card was held and of the announced kind, that the offer put
down is the one committed to, and that a "void" or "done" announcement told the truth.
The first failure names the guilty seat; every honest peer replays the same public log
against the same opened deal, so all of them reach the same verdict.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lodam_p2p.fairdeal import Blame
from lodam_p2p.rules import (
    Action,
    Answer,
    Card,
    Challenge,
    Deal,
    Declare,
    IllegalAction,
    Offer,
    Options,
    Play,
    Swallow,
)
from lodam_p2p.session.wire import Msg

#: Blame checks that are rules offences proven by the audit (the seat is out: RULES.md 8).
RULES_OFFENCES = frozenset({"revoke", "false-play", "false-exchange-kind", "false-offer",
                            "false-answer", "false-void-claim", "offer-opening",
                            "illegal-action", "transfer-position"})


@dataclass(frozen=True, slots=True)
class Logged:
    """One public decision as it was taken: who, what, at which step, with what.

    ``args``: PLAY (position,); OFFER (kind or None,); ANSWER (None,) for a decline or
    (acceptor's position, offerer's position, void) for an accepted exchange; SWALLOW
    (take,); DECLARE (out, challenge); CHALLENGE (target,).
    """

    seat: int
    kind: Msg
    step: int
    args: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class DealSetup:
    """The public inputs of the deal being audited."""

    options: Options
    dealer: int
    lives: tuple[int, ...]
    active: tuple[bool, ...]
    table_id: bytes
    hand: int


def offer_commitment(setup: DealSetup, seat: int, step: int, position: int,
                     salt: bytes) -> bytes:
    """Binds an offer to the position put down, without showing it."""
    data = (b"lodam/offer\x00" + setup.table_id + setup.hand.to_bytes(4, "big")
            + bytes([seat]) + step.to_bytes(4, "big") + position.to_bytes(2, "big") + salt)
    return hashlib.sha256(data).digest()


class Replay:
    """Replays one hand; :meth:`run` returns the blame of the first offence, or None."""

    def __init__(self, setup: DealSetup, deck: tuple[Card, ...], log: list[Logged], *,
                 commitments: dict[int, bytes], openings: dict[int, dict[int, tuple[int, bytes]]],
                 transfers: set[tuple[int, int, int]],
                 masked: Mapping[int, Card] | None = None) -> None:
        self.setup = setup
        #: the card at every position (re-masked ones too), from the audit
        self.cards: dict[int, Card] = dict(enumerate(deck)) | dict(masked or {})
        self.log = log
        self.commitments = commitments  #: step → commitment of the offer made then
        self.openings = openings  #: seat → step → (position, salt)
        self.transfers = transfers  #: (sender, position, receiver) of every transfer
        s = setup
        self.deal = Deal.start(s.options, s.dealer, s.lives, deck, s.active)
        self._offer: tuple[int, int, int] | None = None  # offerer, step, position

    def run(self) -> Blame | None:
        """Replay every logged decision; the first offence's blame, else None."""
        for entry in self.log:
            blame = self._step(entry)
            if blame is not None:
                return blame
        return None

    def _step(self, e: Logged) -> Blame | None:
        if e.kind is Msg.PLAY:
            return self._play(e.seat, self.cards[e.args[0]])
        if e.kind is Msg.OFFER:
            return self._offer_made(e)
        if e.kind is Msg.ANSWER:
            return self._answer(e)
        action: Action
        if e.kind is Msg.SWALLOW:
            action = Swallow(e.seat, e.args[0])
        elif e.kind is Msg.DECLARE:
            action = Declare(e.seat, e.args[0], e.args[1])
        else:
            action = Challenge(e.seat, e.args[0])
        return self._apply(action, "illegal-action")

    def _apply(self, action: Action, check: str) -> Blame | None:
        try:
            self.deal.apply(action)
        except IllegalAction as err:
            return Blame(action.seat, check, err.reason)
        return None

    def _play(self, seat: int, card: Card) -> Blame | None:
        held = card in self.deal.hand(seat)
        blame = self._apply(Play(seat, card), "revoke" if held else "false-play")
        if blame is not None and held:
            return Blame(seat, "revoke", f"renounced with {card} while holding the led suit")
        return blame

    def _offer_made(self, e: Logged) -> Blame | None:
        kind = e.args[0]
        if kind is None:
            return self._apply(Offer(e.seat, None), "illegal-action")
        opened = self.openings.get(e.seat, {}).get(e.step)
        if opened is None:
            return Blame(e.seat, "offer-opening", f"no opening for the offer at step {e.step}")
        position, salt = opened
        if (position not in self.cards or offer_commitment(self.setup, e.seat, e.step, position,
                                                            salt) != self.commitments.get(e.step)):
            return Blame(e.seat, "offer-opening", "the opening does not match the commitment")
        card = self.cards[position]
        if card.kind is None or card.kind.value != kind:
            return Blame(e.seat, "false-exchange-kind", f"offered {card} as a {kind}")
        self._offer = (e.seat, e.step, position)
        return self._apply(Offer(e.seat, card), "false-offer")

    def _answer(self, e: Logged) -> Blame | None:
        if e.args[0] is None:
            return self._apply(Answer(e.seat, None), "illegal-action")
        mine, theirs, void = e.args
        assert self._offer is not None
        offerer, _step, offered = self._offer
        if theirs != offered:
            return Blame(offerer, "offer-opening", "handed over another card than it offered")
        if (e.seat, mine, offerer) not in self.transfers:
            return Blame(e.seat, "transfer-position", f"no transfer of position {mine}")
        if (offerer, theirs, e.seat) not in self.transfers:
            return Blame(offerer, "transfer-position", f"no transfer of position {theirs}")
        card = self.cards[mine]
        blame = self._apply(Answer(e.seat, card), "false-answer")
        if blame is not None:
            offered_kind = self.cards[offered].kind
            if card.kind is not offered_kind:
                return Blame(e.seat, "false-exchange-kind", f"answered with {card}")
            return blame
        if self.deal.public.exchanges[-1].void != void:
            said = "void" if void else "done"
            return Blame(offerer, "false-void-claim", f"announced the exchange {said}")
        return None
