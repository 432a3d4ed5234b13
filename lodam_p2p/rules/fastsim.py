"""A fast simulation path of one deal, for search: small integers in, no checks.

Why a second path
-----------------
A search bot plays thousands of deal endings per decision. :class:`~lodam_p2p.rules.Deal`
checks every action, keeps the public record (trick records, exchange records) and
hands out interned action objects; all of that is right for a table and wasted inside a
simulation. :class:`SimDeal` keeps only what decides the rest of the deal — hands as bit
masks, the trick in progress, points, the trump, whose turn it is — and takes actions as
small integer *codes* (below), trusting the caller to pick them from :meth:`legal`.

It is built *from* the engine (``PublicDeal`` works out the seats, the dealing order and
the current point of the deal), and it follows the engine's machine step for step, so the
two paths agree: the same codes give the same turns, legal moves, points and result. A
test plays both in lockstep. Like the rest of the rules package it is pure: no clock, no
randomness — a caller that wants random play passes its own choices in.

Action codes
------------
==================  ===================================================
``0 … 51``          play the card of that index
``100 + i``         offer card ``i``; ``NO_OFFER`` (152) makes no offer
``200 + i``         accept with card ``i``; ``DECLINE`` (252) declines
``LEAVE``/``TAKE``  (300/301) the swallow question
``DECLARE_PASS``    (400) not now; ``401 + t`` out challenging t; ``DECLARE_ALONE`` (411)
``500 + t``         an eliminated watcher challenges t; ``NO_CHALLENGE`` (510)
==================  ===================================================
"""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.rules.actions import (
    ANSWERS,
    CHALLENGES,
    DECLARE_OUT,
    DECLARE_PASS,
    MAX_SEATS,
    NO_CARD,
    OFFERS,
    PLAYS,
    SWALLOWS,
    Action,
    Answer,
    Challenge,
    Decision,
    Declare,
    Offer,
    Play,
    Swallow,
)
from lodam_p2p.rules.cards import CARD_KINDS, CARD_POINTS, EXCHANGEABLE_MASK, SUIT_BITS, Card, Kind
from lodam_p2p.rules.options import ExchangeRule, Options
from lodam_p2p.rules.public import PublicDeal

# -- decisions (``SimDeal.awaiting``) ------------------------------------------------------
OVER, OFFER, ANSWER, PLAY, SWALLOW, DECLARE, CHALLENGE = -1, 0, 1, 2, 3, 4, 5
DECISION_CODE: dict[Decision, int] = {
    Decision.OFFER: OFFER,
    Decision.ANSWER: ANSWER,
    Decision.PLAY: PLAY,
    Decision.SWALLOW: SWALLOW,
    Decision.DECLARE: DECLARE,
    Decision.CHALLENGE: CHALLENGE,
}

# -- action codes --------------------------------------------------------------------------
OFFER_BASE, NO_OFFER = 100, 152
ANSWER_BASE, DECLINE = 200, 252
LEAVE, TAKE = 300, 301
DECLARE_PASS_CODE, DECLARE_BASE, DECLARE_ALONE = 400, 401, 411
CHALLENGE_BASE, NO_CHALLENGE = 500, 510

#: Kind of each card index as an int: 0 none, 1 coat, 2 card.
KIND_CODE: tuple[int, ...] = tuple(
    0 if k is None else 1 if k is Kind.COAT else 2 for k in CARD_KINDS
)
#: Mask of the exchangeable cards of each kind code (index 0 unused).
KIND_CODE_MASK: tuple[int, ...] = (
    0,
    sum(1 << i for i in range(52) if KIND_CODE[i] == 1),
    sum(1 << i for i in range(52) if KIND_CODE[i] == 2),
)
#: Mask of each suit's cards.
SUIT_MASK: tuple[int, ...] = tuple(SUIT_BITS << (13 * s) for s in range(4))
#: Suit of each card index.
SUIT_OF: tuple[int, ...] = tuple(i // 13 for i in range(52))
#: Per suit, the card indices of each 13-bit pattern of that suit.
_SUIT_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(13 * suit + i for i in range(13) if p >> i & 1) for p in range(1 << 13))
    for suit in range(4)
)


def bits(mask: int) -> list[int]:
    """The card indices of a 52-bit mask, lowest first."""
    s, h, d, c = _SUIT_CARDS
    return [
        *s[mask & SUIT_BITS],
        *h[(mask >> 13) & SUIT_BITS],
        *d[(mask >> 26) & SUIT_BITS],
        *c[mask >> 39],
    ]


class SimDeal:
    """One deal reduced to what decides its end (see the module docstring)."""

    __slots__ = (
        "awaiting",
        "challenge_queue",
        "count",
        "counter_change",
        "declare_out",
        "exchange_rule",
        "hand_size",
        "hands",
        "hi_led_seat",
        "hi_led_str",
        "hi_trump_seat",
        "hi_trump_str",
        "leader",
        "led",
        "left",
        "m",
        "offer_card",
        "offer_kind",
        "offerer",
        "order",
        "out",
        "out_at",
        "players",
        "points",
        "renounced",
        "strength",
        "talon_top",
        "to_act",
        "trick_points",
        "tricks_played",
        "trump",
        "trump_memory",
        "watchers",
        "winner",
        "winning",
    )

    players: int
    order: tuple[int, ...]  #: active seats, eldest first
    left: tuple[int, ...]  #: next active seat to each seat's left
    watchers: tuple[bool, ...]
    m: int  #: active seats
    hand_size: int  #: tricks in the deal
    strength: tuple[int, ...]
    out_at: int
    declare_out: bool
    trump_memory: bool
    winning: bool
    exchange_rule: int  #: 0 every trick, 1 first trick, 2 off
    hands: list[int]  #: bit masks
    talon_top: int  #: card index of the talon's top
    points: list[int]
    leader: int
    tricks_played: int
    trump: int  #: suit, -1 before the turn
    led: int
    count: int  #: cards in the trick on the table
    hi_led_seat: int
    hi_led_str: int
    hi_trump_seat: int
    hi_trump_str: int
    trick_points: int
    renounced: bool
    winner: int
    offerer: int
    offer_kind: int  #: kind code of the offer on the table, 0 when none
    offer_card: int
    challenge_queue: list[int]
    to_act: int  #: -1 when over
    awaiting: int
    out: int  #: -1 when nobody went out
    counter_change: list[int]

    # -- construction ------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        options: Options,
        dealer: int,
        lives: Sequence[int],
        deck: Sequence[Card],
        match_active: Sequence[bool] | None = None,
        *,
        watchers: Sequence[bool] | None = None,
    ) -> SimDeal:
        """The deal that ``Deal.start`` would make from the same arguments."""
        public = PublicDeal.start(options, dealer, lives, match_active, watchers)
        order, size = public.order, public.hand_size
        hands = [0] * public.players
        for k, seat in enumerate(order):
            for j in range(size):
                hands[seat] |= 1 << deck[k + j * len(order)].index
        return cls.from_public(public, hands, deck[len(order) * size].index)

    @classmethod
    def from_public(
        cls, public: PublicDeal, hands: Sequence[int], talon_top: int, offer_card: int = -1
    ) -> SimDeal:
        """The deal at ``public``'s current point with the given hidden part: current
        ``hands`` (bit masks), the talon's top card index and, during answers, the index
        of the offered card. Not checked: ``Deal.from_public`` is the checked way."""
        self = cls.__new__(cls)
        options = public.options
        self.players, self.order, self.left = public.players, public.order, public.left
        self.watchers, self.m = public.watchers, len(public.order)
        self.hand_size, self.strength = public.hand_size, public.strength
        self.out_at, self.declare_out = options.out_at, options.declare_out
        self.trump_memory, self.winning = options.trump_memory, options.winning
        self.exchange_rule = _RULE_CODE[options.exchanges]
        self.hands, self.talon_top = list(hands), talon_top
        self.points, self.leader = public.points[:], public.leader
        self.tricks_played, self.trump = public.tricks_played, public._trump
        self.led, self.count = public._led, len(public.current_trick)
        self.hi_led_seat, self.hi_led_str = public._hi_led_seat, public._hi_led_str
        self.hi_trump_seat, self.hi_trump_str = public._hi_trump_seat, public._hi_trump_str
        self.trick_points, self.renounced = public._trick_points, public._renounced
        self.winner, self.offerer = public._winner, public._offerer
        kind = public._offer_kind
        self.offer_kind = 0 if kind is None else 1 if kind is Kind.COAT else 2
        self.offer_card = offer_card
        self.challenge_queue = public._challenge_queue[:]
        over = public.is_over or public.awaiting is None
        self.to_act = -1 if over or public.to_act is None else public.to_act
        self.awaiting = OVER if over or public.awaiting is None else DECISION_CODE[
            public.awaiting
        ]
        self.out = -1 if public.out is None else public.out
        self.counter_change = list(public.counter_change)
        return self

    def copy(self) -> SimDeal:
        """An independent copy (lists copied, the rest shared)."""
        new = SimDeal.__new__(SimDeal)
        for name in _SHARED:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands[:]
        new.points = self.points[:]
        new.challenge_queue = self.challenge_queue[:]
        new.counter_change = self.counter_change[:]
        return new

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.awaiting == OVER

    # -- decisions ---------------------------------------------------------------------

    def legal(self) -> list[int]:
        """Codes of every legal action of ``to_act``, in the engine's order."""
        d, seat = self.awaiting, self.to_act
        if d == PLAY:
            hand = self.hands[seat]
            if self.led >= 0:
                follow = hand & SUIT_MASK[self.led]
                if follow:
                    return bits(follow)
            return bits(hand)
        if d == OFFER:
            return [NO_OFFER, *(OFFER_BASE + i for i in bits(self.hands[seat] & EXCHANGEABLE_MASK))]
        if d == ANSWER:
            held = self.hands[seat] & KIND_CODE_MASK[self.offer_kind]
            return [DECLINE, *(ANSWER_BASE + i for i in bits(held))]
        if d == SWALLOW:
            return [LEAVE, TAKE]
        targets = [t for t in self.order if t != seat]
        targets.sort()
        if d == DECLARE:
            if self.points[seat] < self.out_at:
                return [DECLARE_PASS_CODE]
            return [DECLARE_PASS_CODE, DECLARE_ALONE, *(DECLARE_BASE + t for t in targets)]
        if d == CHALLENGE:
            return [NO_CHALLENGE, *(CHALLENGE_BASE + t for t in targets)]
        return []

    def step(self, code: int) -> None:
        """Apply the action ``code`` of ``to_act`` (one of :meth:`legal`, unchecked)."""
        d = self.awaiting
        if d == PLAY:
            self.play(code)
        elif d == OFFER:
            self._offer(code)
        elif d == ANSWER:
            self._answer(code)
        elif d == SWALLOW:
            self._swallow(code == TAKE)
        elif d == DECLARE:
            self._declare(code)
        elif d == CHALLENGE:
            self._challenge(code)

    # -- tricks ------------------------------------------------------------------------

    def play(self, index: int) -> None:
        """``to_act`` plays the card ``index`` (the engine's ``_do_play``)."""
        seat = self.to_act
        self.hands[seat] ^= 1 << index
        suit = SUIT_OF[index]
        strength = self.strength[index]
        self.count += 1
        self.trick_points += CARD_POINTS[index]
        led = self.led
        if led < 0:
            self.led = led = suit
            self.hi_led_seat, self.hi_led_str = seat, strength
        elif suit == led:
            if strength > self.hi_led_str:
                self.hi_led_seat, self.hi_led_str = seat, strength
        else:
            self.renounced = True
            if self.trump < 0:
                self.trump = SUIT_OF[self.talon_top]
                if self.trump == led:
                    self.hi_trump_seat, self.hi_trump_str = self.hi_led_seat, self.hi_led_str
        if suit == self.trump and strength > self.hi_trump_str:
            self.hi_trump_seat, self.hi_trump_str = seat, strength
        if self.count == self.m:
            self._finish_trick()
        else:
            self.to_act = self.left[seat]

    def _finish_trick(self) -> None:
        trumped = self.hi_trump_seat >= 0 and self.trump != self.led
        self.winner = self.hi_trump_seat if self.hi_trump_seat >= 0 else self.hi_led_seat
        if self.renounced if self.trump_memory else trumped:
            self.to_act, self.awaiting = self.hi_led_seat, SWALLOW
        else:
            self._take(self.winner)

    def _swallow(self, take: bool) -> None:
        seat = self.to_act
        self._take(seat if take and seat != self.winner else self.winner)

    def _take(self, taker: int) -> None:
        self.points[taker] += self.trick_points
        self.leader = taker
        self.tricks_played += 1
        self.led = self.hi_led_seat = self.hi_trump_seat = self.winner = -1
        self.hi_led_str = self.hi_trump_str = -1
        self.count = self.trick_points = 0
        self.renounced = False
        if self.declare_out:
            self.to_act, self.awaiting = taker, DECLARE
        elif self.points[taker] >= self.out_at:
            self._finish(taker, [taker])
        elif self.tricks_played == self.hand_size:
            self._end_by_points()
        else:
            self._begin_trick()

    def _begin_trick(self) -> None:
        rule = self.exchange_rule
        window = rule == 0 or (rule == 1 and self.tricks_played == 0)
        self.to_act, self.awaiting = self.leader, OFFER if window else PLAY

    # -- exchanges ---------------------------------------------------------------------

    def _offer(self, code: int) -> None:
        seat = self.to_act
        if code == NO_OFFER:
            following = self.to_act = self.left[seat]
            self.awaiting = PLAY if following == self.leader else OFFER
            return
        index = code - OFFER_BASE
        self.offerer, self.offer_kind, self.offer_card = seat, KIND_CODE[index], index
        self.to_act, self.awaiting = self.left[seat], ANSWER

    def _answer(self, code: int) -> None:
        seat, offerer = self.to_act, self.offerer
        if code == DECLINE:
            following = self.left[seat]
            if following != offerer:
                self.to_act = following
                return
        else:
            index, offered = code - ANSWER_BASE, self.offer_card
            if SUIT_OF[index] != SUIT_OF[offered]:
                swap = (1 << index) | (1 << offered)
                self.hands[offerer] ^= swap
                self.hands[seat] ^= swap
        self.offerer, self.offer_kind, self.offer_card = -1, 0, -1
        following = self.to_act = self.left[offerer]
        self.awaiting = PLAY if following == self.leader else OFFER

    # -- declaring out and the end -----------------------------------------------------

    def _declare(self, code: int) -> None:
        seat = self.to_act
        if code != DECLARE_PASS_CODE:
            target = -1 if code == DECLARE_ALONE else code - DECLARE_BASE
            if target >= 0 and self.points[target] >= self.out_at:
                self._finish(target, [target])
            else:
                self._finish(seat, [seat])
            return
        following = self.left[seat]
        if following != self.leader:
            self.to_act = following
            return
        n = self.players
        self.challenge_queue = [
            s for s in ((self.leader + k) % n for k in range(n)) if self.watchers[s]
        ]
        self._next_challenge()

    def _next_challenge(self) -> None:
        if self.challenge_queue:
            self.to_act, self.awaiting = self.challenge_queue.pop(0), CHALLENGE
        elif self.tricks_played == self.hand_size:
            self._end_by_points()
        else:
            self._begin_trick()

    def _challenge(self, code: int) -> None:
        target = code - CHALLENGE_BASE
        if code != NO_CHALLENGE and self.points[target] >= self.out_at:
            self._finish(target, [target])
        else:
            self._next_challenge()

    def _end_by_points(self) -> None:
        top = max(self.points[s] for s in self.order)
        self._finish(-1, [s for s in self.order if self.points[s] == top])

    def _finish(self, out: int, marked: list[int]) -> None:
        step = 1 if self.winning else -1
        change = [0] * self.players
        for seat in marked:
            change[seat] = step
        self.out, self.counter_change = out, change
        self.to_act, self.awaiting = -1, OVER


_SHARED = tuple(name for name in SimDeal.__slots__)
_RULE_CODE = {ExchangeRule.EVERY_TRICK: 0, ExchangeRule.FIRST_TRICK: 1, ExchangeRule.OFF: 2}


# -- codes and engine actions ---------------------------------------------------------------


def action_of(seat: int, decision: int, code: int) -> Action:
    """The engine's (interned) action for ``code`` taken by ``seat`` at ``decision``."""
    if decision == PLAY:
        return PLAYS[seat][code]
    if decision == OFFER:
        return OFFERS[seat][code - OFFER_BASE]
    if decision == ANSWER:
        return ANSWERS[seat][code - ANSWER_BASE]
    if decision == SWALLOW:
        return SWALLOWS[seat][code - LEAVE]
    if decision == DECLARE:
        if code == DECLARE_PASS_CODE:
            return DECLARE_PASS[seat]
        return DECLARE_OUT[seat][MAX_SEATS if code == DECLARE_ALONE else code - DECLARE_BASE]
    return CHALLENGES[seat][MAX_SEATS if code == NO_CHALLENGE else code - CHALLENGE_BASE]


def code_of(action: Action) -> int:
    """The code of an engine action (the inverse of :func:`action_of`)."""
    if isinstance(action, Play):
        return action.card.index
    if isinstance(action, Offer):
        return OFFER_BASE + (NO_CARD if action.card is None else action.card.index)
    if isinstance(action, Answer):
        return ANSWER_BASE + (NO_CARD if action.card is None else action.card.index)
    if isinstance(action, Swallow):
        return TAKE if action.take else LEAVE
    if isinstance(action, Declare):
        if not action.out:
            return DECLARE_PASS_CODE
        return DECLARE_ALONE if action.challenge is None else DECLARE_BASE + action.challenge
    assert isinstance(action, Challenge)
    return NO_CHALLENGE if action.target is None else CHALLENGE_BASE + action.target
