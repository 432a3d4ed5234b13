"""The deal as every seat sees it, advanced by public events.

Theory of operation
-------------------
Nobody at a real table knows the other hands, yet everybody knows whose turn it is. The
engine keeps that property by construction: :class:`PublicDeal` advances on public facts
alone (hand sizes, cards once played, offer kinds and outcomes, the trump card once
turned, swallows, declarations), and the machine it runs
(:class:`~lodam_p2p.games.lodam.machine.DealMachine`) decides who acts next and on what
without reading a hidden card. The full :class:`~lodam_p2p.games.lodam.deal.Deal` fills in the
hidden part (hands, talon, the true exchange cards) of its own ``PublicDeal`` and drives
it with checked actions. So a network peer that tracks a ``PublicDeal`` from announced
events stays in step with the audit that later replays the full ``Deal``.

The public methods (``play``, ``offer`` …) check what public knowledge can check (turn
order, a card played twice, a declaration below ``out_at``) and then apply the event.
The properties give the record as typed values (cards, suits, records).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from lodam_p2p.games.lodam.actions import (
    Action,
    Challenge,
    Decision,
    Declare,
    IllegalAction,
    MalformedInput,
    Play,
    Swallow,
)
from lodam_p2p.games.lodam.cards import CARD_SUIT, CARDS, Card, Kind, Suit
from lodam_p2p.games.lodam.flow import ExchangeRow
from lodam_p2p.games.lodam.legal import CODE_MOVES
from lodam_p2p.games.lodam.machine import DealMachine
from lodam_p2p.games.lodam.options import Options
from lodam_p2p.games.lodam.records import ExchangeRecord, PublicExchange, PublicOffer, TrickRecord
from lodam_p2p.games.lodam.seating import seating

_OFFER = Decision.OFFER
_ANSWER = Decision.ANSWER
_PLAY = Decision.PLAY
_SWALLOW = Decision.SWALLOW
_DECLARE = Decision.DECLARE
_CHALLENGE = Decision.CHALLENGE
_SUITS = tuple(Suit)
M = TypeVar("M")


class DealRecord(DealMachine[M]):
    """The deal machine's record as typed values: cards, suits, tricks and offers.
    Shared by :class:`PublicDeal` and the full :class:`~lodam_p2p.games.lodam.deal.Deal`."""

    __slots__ = ()

    # -- public facts -----------------------------------------------------------------

    @property
    def trump(self) -> Suit | None:
        """The trump suit, once turned."""
        return _SUITS[self.trump_suit] if self.trump_suit >= 0 else None

    @property
    def trump_card(self) -> Card | None:
        """The turned talon card, once turned (it stays the talon's top)."""
        return CARDS[self.talon_top] if self.trump_suit >= 0 else None

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress, ``(seat, card)`` in play order."""
        return _with_seats(self.leader, self.trick, self.left)

    @property
    def hand_sizes(self) -> list[int]:
        """Cards each seat holds now (0 for seats not dealt in)."""
        size = self.hand_size - self.tricks_played
        sizes = [size if a else 0 for a in self.active]
        seat, left = self.leader, self.left
        for _ in self.trick:
            sizes[seat] -= 1
            seat = left[seat]
        return sizes

    @property
    def tricks(self) -> list[TrickRecord]:
        """Completed tricks (public: their cards were played face up)."""
        built, log, left = self._tricks, self._trick_log, self.left
        if len(built) < len(log):
            built.extend(
                TrickRecord(leader, tuple(_with_seats(leader, cards, left)), taker, gained, sw)
                for leader, cards, taker, gained, sw in log[len(built) :]
            )
        return built  # type: ignore[return-value]

    def public_exchanges(self) -> list[PublicExchange]:
        """Every resolved offer: kind and outcome, never the cards."""
        built, log = self._exchanges, self._exchange_log
        if len(built) < len(log):
            built.extend(
                PublicExchange(o, k, a, v, before_trick=t)
                for o, k, a, v, t, _given, _taken in log[len(built) :]
            )
        return built  # type: ignore[return-value]

    def exchange_records(self, since: int = 0) -> list[ExchangeRecord]:
        """The resolved offers from the ``since``-th on with their true cards: only
        for offers made while the hidden part was known (a full deal's)."""
        return [_exchange_record(row) for row in self._exchange_log[since:]]

    @property
    def exchange_count(self) -> int:
        """How many offers have been resolved."""
        return len(self._exchange_log)

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the current trick, if any card is down."""
        return _SUITS[self.led] if self.led >= 0 else None

    @property
    def pending_offer(self) -> PublicOffer | None:
        """The offer on the table while answers are asked."""
        if self.offer_kind is None:
            return None
        return PublicOffer(self.offerer, self.offer_kind)

    @property
    def played_mask(self) -> int:
        """Bit mask of every card played so far."""
        return self.played

    def turns_trump(self, card: Card) -> bool:
        """Whether playing ``card`` now is the first renounce, which turns the trump."""
        return self.trump_suit < 0 and self.led >= 0 and CARD_SUIT[card.index] != self.led



class PublicDeal(DealRecord[int]):
    """One deal tracked from public events only (see the module docstring)."""

    __slots__ = ()

    # -- construction ---------------------------------------------------------------

    @classmethod
    def start(
        cls,
        options: Options,
        dealer: int,
        lives: Sequence[int],
        match_active: Sequence[bool] | None = None,
        watchers: Sequence[bool] | None = None,
    ) -> PublicDeal:
        """A deal about to begin. ``lives`` per seat; ``match_active`` says who is still
        in the match (default: lives > 0, or everyone in Winning Lodam); ``watchers``
        which eliminated seats may challenge (default: all of them)."""
        self = cls.__new__(cls)
        table = seating(options, dealer, lives, match_active, watchers)
        self._setup(options, dealer, table, CODE_MOVES)
        return self

    @property
    def exchanges(self) -> list[PublicExchange]:
        """Every resolved offer: kind and outcome, never the cards."""
        return self.public_exchanges()

    def whose_turn(self) -> int | None:
        """The seat to act: Lodam's turn order never hangs on a hidden card."""
        return self.to_act

    # -- checked public events ----------------------------------------------------------

    def play(self, seat: int, card: Card, trump_card: Card | None = None) -> None:
        """A card played face up; ``trump_card`` is the talon top when this play is the
        first renounce of the deal (see :meth:`turns_trump`)."""
        action = Play(seat, card)
        self._check_turn(seat, _PLAY, action)
        bit = 1 << card.index
        if self.played & bit or card is self.trump_card:
            raise IllegalAction(seat, action, f"{card} is not in anyone's hand")
        if self.turns_trump(card):
            if trump_card is None:
                raise MalformedInput("the first renounce needs the turned talon card")
            if self.played & (1 << trump_card.index) or trump_card == card:
                raise MalformedInput(f"{trump_card} cannot be the talon top: it was played")
            self.talon_top = trump_card.index
        self.play_card(seat, card.index)

    def offer(self, seat: int, kind: Kind | None) -> None:
        """An offer of ``kind`` put face down, or ``None``: no offer."""
        self._check_turn(seat, _OFFER, None)
        self._offer(seat, -1, kind)

    def answer(self, seat: int, accepted: bool, void: bool = False) -> None:
        """An answer to the offer on the table, with the announced outcome if accepted."""
        self._check_turn(seat, _ANSWER, None)
        if accepted:
            self._settle(seat, -1, void)
        else:
            self._decline(seat)

    def swallow(self, seat: int, take: bool) -> None:
        """The swallow question answered."""
        self._check_turn(seat, _SWALLOW, Swallow(seat, take))
        self._swallow(take)

    def declare(self, seat: int, out: bool, challenge: int | None = None) -> None:
        """A declaration at a trick boundary (``declare_out``)."""
        action = Declare(seat, out, challenge)
        self._check_turn(seat, _DECLARE, action)
        if out:
            self._check_declaration(action)
        self._declare(out, challenge)

    def challenge(self, seat: int, target: int | None) -> None:
        """An eliminated watcher's challenge, or ``None``."""
        action = Challenge(seat, target)
        self._check_turn(seat, _CHALLENGE, action)
        if target is not None and target not in self.challenge_targets(seat):
            raise IllegalAction(seat, action, f"seat {target} is not dealt in")
        self._challenge(target)

    def _check_turn(self, seat: int, decision: Decision, action: Action | None) -> None:
        if self.is_over:
            raise IllegalAction(seat, action, "the deal is over")
        if self.to_act != seat or self.awaiting is not decision:
            raise IllegalAction(seat, action, self.turn_reason(seat))

    def _check_declaration(self, action: Declare) -> None:
        held = self.points[action.seat]
        if held < self.options.out_at:
            reason = f"a declaration below {self.options.out_at} is refused (holds {held})"
            raise IllegalAction(action.seat, action, reason)
        target = action.challenge
        if target is not None and target not in self.challenge_targets(action.seat):
            raise IllegalAction(action.seat, action, f"seat {target} cannot be challenged")


def _with_seats(
    leader: int, cards: Sequence[int], left: tuple[int, ...]
) -> list[tuple[int, Card]]:
    """``(seat, card)`` pairs of a trick's cards: every seat plays in turn from the leader."""
    out, seat = [], leader
    for index in cards:
        out.append((seat, CARDS[index]))
        seat = left[seat]
    return out


def _exchange_record(row: ExchangeRow) -> ExchangeRecord:
    offerer, _kind, acceptor, void, _trick, given, taken = row
    return ExchangeRecord(offerer, CARDS[given], acceptor, CARDS[taken] if taken >= 0 else None,
                          void)
