"""The deal as every seat sees it, advanced by public events.

Theory of operation
-------------------
Nobody at a real table knows the other hands, yet everybody knows whose turn it is. The
engine keeps that property by construction: :class:`PublicDeal` holds *only* public
facts (hand sizes, cards once played, offer kinds and outcomes, the trump card once
turned, swallows, declarations) and alone decides who acts next and on what (the machine
is :class:`~lodam_p2p.rules.flow.DealFlow`). The full :class:`~lodam_p2p.rules.deal.Deal`
adds the hidden part (hands, talon, the true exchange cards) and the checks that need it,
then drives this same machine. So turn order can never depend on a hidden card, and a
network peer that tracks a ``PublicDeal`` from announced events stays in step with the
audit that later replays the full ``Deal``.

The public methods (``play``, ``offer`` …) check what public knowledge can check (turn
order, a card played twice, a declaration below ``out_at``) and then apply the event.
"""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.rules.actions import (
    Action,
    Challenge,
    Decision,
    Declare,
    IllegalAction,
    MalformedInput,
    Play,
    Swallow,
)
from lodam_p2p.rules.cards import CARD_SUIT, Card, Kind, Suit, strength_table
from lodam_p2p.rules.flow import DealFlow
from lodam_p2p.rules.options import MAX_PLAYERS, MIN_PLAYERS, Options
from lodam_p2p.rules.records import PublicExchange, PublicOffer, TrickRecord

_OFFER = Decision.OFFER
_ANSWER = Decision.ANSWER
_PLAY = Decision.PLAY
_SWALLOW = Decision.SWALLOW
_DECLARE = Decision.DECLARE
_CHALLENGE = Decision.CHALLENGE


class PublicDeal(DealFlow):
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
        players = _check_seats(lives, dealer)
        active = _active_seats(options, lives, match_active, players)
        self.options, self.players, self.dealer = options, players, dealer
        self.lives, self.active = tuple(lives), active
        self.watchers = tuple(
            not active[s] and (watchers is None or bool(watchers[s])) for s in range(players)
        )
        self.left = tuple(_next_active(active, s) for s in range(players))
        self.order = _dealing_order(self.left, dealer, sum(active))
        m = len(self.order)
        self.hand_size = options.hand_size_for(m)
        self.pack_size = options.pack_size(m)
        self.hand_sizes = [self.hand_size if a else 0 for a in active]
        self.talon_size = self.pack_size - m * self.hand_size
        self.strength = strength_table(options.rank_order)
        self.trump, self.trump_card, self._trump = None, None, -1
        self.points = [0] * players
        self._trick_log, self._tricks, self.tricks_played = [], [], 0
        self._exchange_log, self._exchanges, self._offer_mask = [], [], 0
        self._m = m
        self.is_over, self.out, self.counter_change, self.reason = False, None, (), ""
        self._played, self._offerer, self._offer_kind = 0, -1, None
        self._challenge_queue = []
        self.leader = self.order[0]
        self._reset_trick()
        self._begin_trick()
        return self

    def copy(self) -> PublicDeal:
        """An independent copy (lists copied, immutable parts shared)."""
        new = PublicDeal.__new__(PublicDeal)
        for name in DealFlow.__slots__:
            setattr(new, name, getattr(self, name))
        new.hand_sizes = self.hand_sizes[:]
        new.points = self.points[:]
        new._trick_log, new._tricks = self._trick_log[:], self._tricks[:]
        new._exchange_log, new._exchanges = self._exchange_log[:], self._exchanges[:]
        new.current_trick = self.current_trick[:]
        new._challenge_queue = self._challenge_queue[:]
        return new

    # -- public facts -----------------------------------------------------------------

    @property
    def tricks(self) -> list[TrickRecord]:
        """Completed tricks (public: their cards were played face up)."""
        built, log = self._tricks, self._trick_log
        if len(built) < len(log):
            built.extend(TrickRecord(*row) for row in log[len(built) :])
        return built

    @property
    def exchanges(self) -> list[PublicExchange]:
        """Every resolved offer: kind and outcome, never the cards."""
        built, log = self._exchanges, self._exchange_log
        if len(built) < len(log):
            built.extend(
                PublicExchange(o, k, a, v, before_trick=t) for o, k, a, v, t in log[len(built) :]
            )
        return built

    @property
    def led_suit(self) -> Suit | None:
        """The suit led to the current trick, if any card is down."""
        return Suit(self._led) if self._led >= 0 else None

    @property
    def pending_offer(self) -> PublicOffer | None:
        """The offer on the table while answers are asked."""
        if self._offer_kind is None:
            return None
        return PublicOffer(self._offerer, self._offer_kind)

    @property
    def played_mask(self) -> int:
        """Bit mask of every card played so far."""
        return self._played

    def turns_trump(self, card: Card) -> bool:
        """Whether playing ``card`` now is the first renounce, which turns the trump."""
        return self._trump < 0 and self._led >= 0 and CARD_SUIT[card.index] != self._led

    def challenge_targets(self, seat: int) -> tuple[int, ...]:
        """Seats that ``seat`` may challenge: every other seat dealt in, by seat number."""
        return tuple(t for t in range(self.players) if self.active[t] and t != seat)

    # -- checked public events ----------------------------------------------------------

    def play(self, seat: int, card: Card, trump_card: Card | None = None) -> None:
        """A card played face up; ``trump_card`` is the talon top when this play is the
        first renounce of the deal (see :meth:`turns_trump`)."""
        action = Play(seat, card)
        self._check_turn(seat, _PLAY, action)
        bit = 1 << card.index
        if self._played & bit or card is self.trump_card:
            raise IllegalAction(seat, action, f"{card} is not in anyone's hand")
        if self.turns_trump(card):
            if trump_card is None:
                raise MalformedInput("the first renounce needs the turned talon card")
            if self._played & (1 << trump_card.index) or trump_card == card:
                raise MalformedInput(f"{trump_card} cannot be the talon top: it was played")
        self._do_play(seat, card, trump_card)

    def offer(self, seat: int, kind: Kind | None) -> None:
        """An offer of ``kind`` put face down, or ``None``: no offer."""
        self._check_turn(seat, _OFFER, None)
        self._do_offer(seat, kind)

    def answer(self, seat: int, accepted: bool, void: bool = False) -> None:
        """An answer to the offer on the table, with the announced outcome if accepted."""
        self._check_turn(seat, _ANSWER, None)
        self._do_answer(seat, accepted, void and accepted)

    def swallow(self, seat: int, take: bool) -> None:
        """The swallow question answered."""
        self._check_turn(seat, _SWALLOW, Swallow(seat, take))
        self._do_swallow(seat, take)

    def declare(self, seat: int, out: bool, challenge: int | None = None) -> None:
        """A declaration at a trick boundary (``declare_out``)."""
        action = Declare(seat, out, challenge)
        self._check_turn(seat, _DECLARE, action)
        if out:
            self._check_declaration(action)
        self._do_declare(seat, out, challenge)

    def challenge(self, seat: int, target: int | None) -> None:
        """An eliminated watcher's challenge, or ``None``."""
        action = Challenge(seat, target)
        self._check_turn(seat, _CHALLENGE, action)
        if target is not None and target not in self.challenge_targets(seat):
            raise IllegalAction(seat, action, f"seat {target} is not dealt in")
        self._do_challenge(seat, target)

    def _check_turn(self, seat: int, decision: Decision, action: Action | None) -> None:
        if self.is_over:
            raise IllegalAction(seat, action, "the deal is over")
        if self.to_act != seat or self.awaiting is not decision:
            raise IllegalAction(seat, action, self.turn_reason(seat))

    def turn_reason(self, seat: int | None = None) -> str:
        """Why ``seat`` may not act so now: whose turn it is and for what."""
        if self.is_over or self.awaiting is None:
            return "the deal is over"
        if seat is not None and seat == self.to_act:
            return f"its decision now is to {self.awaiting.value}"
        return f"it is seat {self.to_act}'s turn to {self.awaiting.value}"

    def _check_declaration(self, action: Declare) -> None:
        held = self.points[action.seat]
        if held < self.options.out_at:
            reason = f"a declaration below {self.options.out_at} is refused (holds {held})"
            raise IllegalAction(action.seat, action, reason)
        target = action.challenge
        if target is not None and target not in self.challenge_targets(action.seat):
            raise IllegalAction(action.seat, action, f"seat {target} cannot be challenged")


def _check_seats(lives: Sequence[int], dealer: int) -> int:
    players = len(lives)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedInput(f"a table seats 2 to 10 players, got {players}")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise MalformedInput(f"dealer must be a seat 0 … {players - 1}, got {dealer!r}")
    for life in lives:
        if isinstance(life, bool) or not isinstance(life, int) or life < 0:
            raise MalformedInput(f"lives must be counts ≥ 0, got {life!r}")
    return players


def _active_seats(
    options: Options, lives: Sequence[int], match_active: Sequence[bool] | None, players: int
) -> tuple[bool, ...]:
    if match_active is None:
        active = tuple(options.winning or life > 0 for life in lives)
    else:
        if len(match_active) != players:
            raise MalformedInput("match_active must give one flag per seat")
        active = tuple(bool(a) for a in match_active)
    if sum(active) < MIN_PLAYERS:
        raise MalformedInput(f"a deal needs at least 2 active players, got {sum(active)}")
    return active


def _next_active(active: tuple[bool, ...], seat: int) -> int:
    n = len(active)
    for step in range(1, n + 1):
        if active[(seat + step) % n]:
            return (seat + step) % n
    raise MalformedInput("no active seat")


def _dealing_order(left: tuple[int, ...], dealer: int, count: int) -> tuple[int, ...]:
    """Active seats from the eldest hand (first active seat left of the dealer)."""
    order = [left[dealer]]
    while len(order) < count:
        order.append(left[order[-1]])
    return tuple(order)
