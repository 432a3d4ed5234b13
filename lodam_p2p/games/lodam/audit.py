"""The end-of-deal rules audit of a networked Lodam deal: the full deal replayed over the
table's public log.

During a deal every seat tracks only the :class:`~lodam_p2p.games.lodam.PublicDeal`: a played
card is the card its position revealed, an offer is a kind and a commitment, an exchange
is two positions and an announced outcome. Once every seat has opened its secrets the
opened deck knows the card at every position, and this replay runs the deal through the
full :class:`~lodam_p2p.games.lodam.Deal`, which checks what nobody could check before: that
every renounce was allowed (a *revoke* otherwise, RULES.md 8), that every offered and
accepted card was held and of the announced kind, that the offer put down is the one
committed to, that each card handed over was transferred, and that a "void" or "done"
announcement told the truth. The first failure names the guilty seat; every honest seat
replays the same log against the same opened deck, so all of them reach the same verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lodam_p2p.games.kit.values import LoggedMove, Replayed, ReplayError
from lodam_p2p.games.lodam.actions import (
    Action,
    Answer,
    Challenge,
    Declare,
    IllegalAction,
    Offer,
    Play,
    Swallow,
)
from lodam_p2p.games.lodam.cards import Card
from lodam_p2p.games.lodam.match import Match

#: Offences this replay proves: each is a breach of the rules (RULES.md 8).
OFFENCES = frozenset({"revoke", "false-play", "false-exchange-kind", "false-offer",
                      "false-answer", "false-void-claim", "offer-opening",
                      "illegal-action", "transfer-position"})


class Replay:
    """Replays one deal; :meth:`run` returns the replay and its first offence, if any."""

    def __init__(self, match: Match, deck: Sequence[Card], masked: Mapping[int, Card],
                 offers: Mapping[int, int | str],
                 transfers: frozenset[tuple[int, int, int]]) -> None:
        #: the card at every position (re-masked ones too), from the opened deck
        self.cards: dict[int, Card] = dict(enumerate(deck)) | dict(masked)
        self.offers = offers  #: step → the position an offer put down, or why not opened
        self.transfers = transfers  #: (sender, position, receiver) of every transfer
        self.deal = match.new_deal(deck)
        self._offer: tuple[int, int] | None = None  # offerer, position put down
        self._index = 0

    def run(self, log: Sequence[LoggedMove]) -> Replayed:
        """Replay every logged move; stops at the first offence."""
        for index, entry in enumerate(log):
            self._index = index
            error = self._step(entry)
            if error is not None:
                return Replayed(self.deal, index, error)
        return Replayed(self.deal, len(log), None)

    def _error(self, seat: int, offence: str, message: str) -> ReplayError:
        return ReplayError(self._index, seat, offence, message)

    def _step(self, e: LoggedMove) -> ReplayError | None:
        if e.kind == "play":
            return self._play(e.seat, self._card(e.args[0]))
        if e.kind == "offer":
            return self._offer_made(e)
        if e.kind == "answer":
            return self._answer(e)
        action: Action
        if e.kind == "swallow":
            action = Swallow(e.seat, bool(e.args[0]))
        elif e.kind == "declare":
            target = e.args[1]
            action = Declare(e.seat, bool(e.args[0]), target if isinstance(target, int) else None)
        else:
            target = e.args[0]
            action = Challenge(e.seat, target if isinstance(target, int) else None)
        return self._apply(action, "illegal-action")

    def _card(self, position: object) -> Card:
        assert isinstance(position, int)
        return self.cards[position]

    def _apply(self, action: Action, offence: str) -> ReplayError | None:
        try:
            self.deal.apply(action)
        except IllegalAction as err:
            return self._error(action.seat, offence, err.reason)
        return None

    def _play(self, seat: int, card: Card) -> ReplayError | None:
        held = card in self.deal.hand(seat)
        error = self._apply(Play(seat, card), "revoke" if held else "false-play")
        if error is not None and held:
            return self._error(seat, "revoke", f"renounced with {card} while holding the "
                               "led suit")
        return error

    def _offer_made(self, e: LoggedMove) -> ReplayError | None:
        kind = e.args[0]
        if kind is None:
            return self._apply(Offer(e.seat, None), "illegal-action")
        opened = self.offers.get(e.step, f"no opening for the offer at step {e.step}")
        if isinstance(opened, str) or opened not in self.cards:
            why = opened if isinstance(opened, str) else "the opening does not match the " \
                "commitment"
            return self._error(e.seat, "offer-opening", why)
        card = self.cards[opened]
        if card.kind is None or card.kind.value != kind:
            return self._error(e.seat, "false-exchange-kind", f"offered {card} as a {kind}")
        self._offer = (e.seat, opened)
        return self._apply(Offer(e.seat, card), "false-offer")

    def _answer(self, e: LoggedMove) -> ReplayError | None:
        if e.args[0] is None:
            return self._apply(Answer(e.seat, None), "illegal-action")
        mine, theirs, void = e.args
        assert self._offer is not None and isinstance(mine, int)
        offerer, offered = self._offer
        if theirs != offered:
            return self._error(offerer, "offer-opening", "handed over another card than it "
                               "offered")
        if (e.seat, mine, offerer) not in self.transfers:
            return self._error(e.seat, "transfer-position", f"no transfer of position {mine}")
        if (offerer, theirs, e.seat) not in self.transfers:
            return self._error(offerer, "transfer-position",
                               f"no transfer of position {theirs}")
        card = self.cards[mine]
        error = self._apply(Answer(e.seat, card), "false-answer")
        if error is not None:
            if card.kind is not self.cards[offered].kind:
                return self._error(e.seat, "false-exchange-kind", f"answered with {card}")
            return error
        if self.deal.public.exchanges[-1].void != void:
            said = "void" if void else "done"
            return self._error(offerer, "false-void-claim", f"announced the exchange {said}")
        return None
