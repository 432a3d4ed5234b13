"""The one machine of a deal: its state, its legal moves and its transitions.

Theory of operation
-------------------
A deal is one state machine, :class:`DealMachine`, used in two ways — as a chess
library's board serves both its pseudo-legal and its legal moves from one generator:

* **checked**: :class:`~lodam_p2p.rules.public.PublicDeal` takes public events (a card
  played face up, an offer's kind, an answer's outcome) and
  :class:`~lodam_p2p.rules.deal.Deal` takes a seat's actions; each checks what it is
  given, says why it refuses, and keeps the typed record;
* **unchecked**: a search plays thousands of deal endings per decision. It fills in the
  hidden part (:meth:`DealMachine.with_hidden`), asks :attr:`~DealMachine.legal`
  and applies small integer codes (:mod:`lodam_p2p.rules.codes`) with
  :meth:`~DealMachine.step`, trusting itself to pick them from the list.

Both go through the same generator (:attr:`~DealMachine.legal`, which spells the legal
moves in the machine's alphabet: interned actions for a full deal, codes otherwise), the
same test of one move (:meth:`~DealMachine.allows`) and the same transitions, so the
paths cannot drift apart.

The state is plain integers: hands are 52-bit masks, suits and seats small ints, -1 for
"none yet". The *hidden part* — ``hands``, ``talon_top`` (the talon's top card) and
``offer_card`` (the card of the offer on the table) — is zero and -1 where it is not
known, as in a deal tracked from announcements. Whose turn it is never depends on it:
the only transitions that read it are a renounce turning the trump (whose card is then
public) and an answer swapping the traded cards.

The flow of one trick (RULES.md 5–7)::

    [exchange window] each active seat from the leader gets OFFER; an offer of a kind
        asks the others in turn from the offerer's left (ANSWER) until one accepts
    PLAY × active seats, from the leader; the first renounce turns the talon top (trump)
    [SWALLOW] to the highest card of the led suit when a trump won the trick
        (under trump_memory: after every trick with a renounce)
    the taker scores; default mode: out at ``out_at`` ends the deal at once
    [declare_out] DECLARE for each active seat from the new leader, then CHALLENGE
        for each eliminated watcher
    after the last trick: most points loses (ties all lose)

The trick's winner is tracked card by card (highest of the led suit, highest trump), so
finishing a trick needs no second pass over it. Records are logged as plain tuples and
turned into frozen dataclasses only when someone reads them (:mod:`.public`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from lodam_p2p.rules.actions import NO_CARD, Action, Answer, Decision, Offer, Play
from lodam_p2p.rules.cards import (
    CARD_KINDS,
    CARD_POINTS,
    CARD_SUIT,
    EXCHANGEABLE_MASK,
    FULL_MASK,
    Card,
    Kind,
)
from lodam_p2p.rules.codes import (
    ANSWER_BASE,
    CHALLENGE_BASE,
    DECLARE_ALONE,
    DECLARE_BASE,
    DECLARE_PASS_CODE,
    DECLINE,
    KIND_MASK_OF,
    LEAVE,
    NO_CHALLENGE,
    NO_OFFER,
    OFFER_BASE,
    SUIT_MASK,
    TAKE,
    code_of,
    kind_mask,
)
from lodam_p2p.rules.legal import CODE_MOVES, SUIT_GETTERS, SUIT_SHIFT, Moves
from lodam_p2p.rules.options import ExchangeRule, Options
from lodam_p2p.rules.seating import Seating

_OFFER = Decision.OFFER
_ANSWER = Decision.ANSWER
_PLAY = Decision.PLAY
_SWALLOW = Decision.SWALLOW
_DECLARE = Decision.DECLARE
_CHALLENGE = Decision.CHALLENGE
_EVERY = ExchangeRule.EVERY_TRICK
_FIRST = ExchangeRule.FIRST_TRICK

M = TypeVar("M")
Self = TypeVar("Self", bound="DealMachine[Any]")
Other = TypeVar("Other", bound="DealMachine[Any]")

#: A resolved offer as logged: offerer, kind, acceptor, void, before which trick, and
#: the offered and accepting cards (-1 where not known).
ExchangeRow = tuple[int, Kind, "int | None", bool, int, int, int]
#: A completed trick as logged: leader, card indices in play order, taker, points, swallowed.
TrickRow = tuple[int, tuple[int, ...], int, int, bool]


class DealMachine(Generic[M]):
    """The state and transitions of one deal (see the module docstring)."""

    __slots__ = (  # noqa: RUF023 -- grouped by role
        # the table, fixed for the deal (copies share it)
        "active", "dealer", "declare_out", "exchange_rule", "hand_size", "left", "lives",
        "m", "options", "order", "out_at", "pack_size", "players", "strength",
        "talon_size", "trump_memory", "watchers", "winning",
        # the hidden part, and the alphabet the legal moves are spelled in
        "alphabet", "hands", "offer_card", "talon_top",
        # the deal as everybody sees it
        "awaiting", "challenge_queue", "counter_change", "hi_led_seat", "hi_led_str",
        "follow", "hi_trump_seat", "hi_trump_str", "is_over", "leader", "led", "offer_kind",
        "offer_mask", "offerer", "out", "played", "points", "reason", "renounced",
        "to_act", "trick", "trick_points", "tricks_played", "trump_suit", "winner",
        # records: logged rows and, built from them on demand, typed records
        "_exchange_log", "_exchanges", "_trick_log", "_tricks",
    )

    options: Options
    players: int
    dealer: int
    lives: tuple[int, ...]
    active: tuple[bool, ...]  #: dealt in this deal
    watchers: tuple[bool, ...]  #: eliminated seats still watching (may challenge)
    order: tuple[int, ...]  #: active seats in dealing order, eldest first
    left: tuple[int, ...]  #: for each seat, the next active seat to its left
    m: int  #: active seats, so cards per trick
    hand_size: int
    pack_size: int
    talon_size: int
    strength: tuple[int, ...]  #: of each card index within its suit
    out_at: int
    declare_out: bool
    trump_memory: bool
    winning: bool
    exchange_rule: ExchangeRule
    alphabet: Sequence[Moves[M]]  #: per seat, how :attr:`legal` spells the moves
    hands: list[int]  #: current hands as masks (0 where not known)
    talon_top: int  #: card index of the talon's top (-1 where not known)
    offer_card: int  #: card index of the offer on the table (-1: none or not known)
    points: list[int]
    leader: int  #: the seat that leads (or led) the current trick
    tricks_played: int
    trump_suit: int  #: -1 before the turn
    trick: list[int]  #: card indices of the trick in progress, from the leader on
    led: int  #: suit led to the current trick, -1 before the lead
    #: mask of the led suit, 0 before the lead: the playable cards of a hand are
    #: ``hand & follow or hand`` (follow suit if you can)
    follow: int
    hi_led_seat: int  #: holder of the highest card of the led suit so far
    hi_led_str: int
    hi_trump_seat: int  #: holder of the highest trump so far, -1 if none
    hi_trump_str: int
    trick_points: int
    renounced: bool  #: someone renounced in this trick
    winner: int  #: the trick's winner before any swallow
    offerer: int  #: -1 when no offer is on the table
    offer_kind: Kind | None
    offer_mask: int  #: mask of the cards of the offered kind, 0 when none
    challenge_queue: list[int]
    played: int  #: mask of every card played
    to_act: int | None  #: None once over
    awaiting: Decision | None  #: None once over
    is_over: bool
    out: int | None
    counter_change: tuple[int, ...]
    reason: str
    _trick_log: list[TrickRow]
    _tricks: list[object]
    _exchange_log: list[ExchangeRow]
    _exchanges: list[object]

    # -- construction -----------------------------------------------------------------

    def _setup(
        self, options: Options, dealer: int, seating: Seating, alphabet: Sequence[Moves[M]]
    ) -> None:
        """A deal about to begin at an already checked ``seating``."""
        self.alphabet = alphabet
        self.options, self.players, self.dealer = options, len(seating.lives), dealer
        self.lives, self.active, self.watchers = seating.lives, seating.active, seating.watchers
        self.left, self.order, self.m = seating.left, seating.order, len(seating.order)
        self.hand_size, self.pack_size = seating.hand_size, seating.pack_size
        self.talon_size = self.pack_size - self.m * self.hand_size
        self.strength = seating.strength
        self.out_at, self.declare_out = options.out_at, options.declare_out
        self.trump_memory, self.winning = options.trump_memory, options.winning
        self.exchange_rule = options.exchanges
        self.hands, self.talon_top, self.offer_card = [0] * self.players, -1, -1
        self.points = [0] * self.players
        self.tricks_played, self.trump_suit, self.played = 0, -1, 0
        self.offerer, self.offer_kind, self.offer_mask = -1, None, 0
        self.challenge_queue = []
        self.is_over, self.out, self.counter_change, self.reason = False, None, (), ""
        self._trick_log, self._tricks, self._exchange_log, self._exchanges = [], [], [], []
        self.leader = self.order[0]
        self._reset_trick()
        self._begin_trick()

    def copy(self: Self) -> Self:
        """An independent copy (lists copied, immutable parts shared)."""
        return self.copy_as(type(self), self.alphabet)

    def copy_as(self, cls: type[Other], alphabet: Sequence[Moves[Any]]) -> Other:
        """An independent copy as a ``cls`` spelling its moves in ``alphabet``."""
        new = object.__new__(cls)
        new.alphabet = alphabet
        _copy_shared(self, new)
        new.hands, new.points, new.trick = self.hands[:], self.points[:], self.trick[:]
        new.challenge_queue = self.challenge_queue[:]
        new._trick_log, new._tricks = self._trick_log[:], self._tricks[:]
        new._exchange_log, new._exchanges = self._exchange_log[:], self._exchanges[:]
        return new

    def with_hidden(
        self: Self, hands: Sequence[int], talon_top: int, offer_card: int = -1
    ) -> Self:
        """A copy with the hidden part filled in: current ``hands`` (masks), the talon's
        top card index and, during answers, the offered card's index. Not checked
        (``Deal.from_public`` is the checked way): a search samples them itself."""
        new = self.copy()
        new.fill_hidden(hands, talon_top, offer_card)
        return new

    def fill_hidden(self, hands: Sequence[int], talon_top: int, offer_card: int = -1) -> None:
        """Fill in the hidden part in place (see :meth:`with_hidden`)."""
        self.hands, self.talon_top, self.offer_card = list(hands), talon_top, offer_card

    # -- the generator and the test of one move ---------------------------------------

    # The rules of choice are three masks kept by the transitions: ``follow`` (the led
    # suit), ``offer_mask`` (the offered kind) and the exchangeable cards. The playable
    # cards are ``hand & follow or hand``, the answers ``hand & offer_mask``, the offers
    # ``hand & EXCHANGEABLE_MASK``; the generator and the test of one move both read them
    # so, and nothing else decides what a hand may do.

    def card_choices(self) -> int:
        """The cards the awaited decision may use, as a mask: the playable cards, the
        cards that may be offered, or those that may answer the offer (0 otherwise)."""
        seat, d = self.to_act, self.awaiting
        if seat is None:
            return 0
        hand = self.hands[seat]
        if d is _PLAY:
            return hand & self.follow or hand
        if d is _ANSWER:
            return hand & self.offer_mask
        if d is _OFFER:
            return hand & EXCHANGEABLE_MASK
        return 0

    def turn_reason(self, seat: int | None = None) -> str:
        """Why ``seat`` may not act so now: whose turn it is and for what."""
        if self.is_over or self.awaiting is None:
            return "the deal is over"
        if seat is not None and seat == self.to_act:
            return f"its decision now is to {self.awaiting.value}"
        return f"it is seat {self.to_act}'s turn to {self.awaiting.value}"

    def challenge_targets(self, seat: int) -> tuple[int, ...]:
        """Seats that ``seat`` may challenge: every other seat dealt in, by seat number."""
        return tuple(t for t in range(self.players) if self.active[t] and t != seat)

    @property
    def legal(self) -> tuple[M, ...]:
        """Every legal move of ``to_act``, spelled in this machine's ``alphabet``
        (interned actions for a full deal, codes otherwise), in a fixed order, defaults
        first; empty once the deal is over."""
        seat, d = self.to_act, self.awaiting
        if seat is None:
            return ()
        moves, hand = self.alphabet[seat], self.hands[seat]
        if d is _ANSWER:
            cards = hand & self.offer_mask
            return moves.answers(cards) if cards else moves.decline
        if d is _PLAY:
            following = hand & self.follow
            if following:  # one suit: one table look-up
                led = self.led
                return SUIT_GETTERS[led][following >> SUIT_SHIFT[led]](moves.play_row)
            return moves.plays(hand)
        if d is _OFFER:
            cards = hand & EXCHANGEABLE_MASK
            return moves.offers(cards) if cards else moves.no_offer
        if d is _SWALLOW:
            return moves.swallows
        others = self.challenge_targets(seat)
        if d is _DECLARE:
            return moves.declarations(self.points[seat] >= self.out_at, others)
        return moves.challenges(others)

    def legal_codes(self) -> tuple[int, ...]:
        """Every legal move of ``to_act`` as a code, whatever the alphabet."""
        if self.alphabet is CODE_MOVES:
            return self.legal  # type: ignore[return-value]
        return tuple(code_of(move) for move in self.legal)  # type: ignore[arg-type]

    def allows(self, code: int) -> bool:
        """Whether ``code`` is among :meth:`legal_codes` (without spelling them all)."""
        d = self.awaiting
        if d is _ANSWER:
            code -= ANSWER_BASE
            return code == NO_CARD or (0 <= code < 52 and self.card_choices() >> code & 1 == 1)
        if d is _PLAY:
            return 0 <= code < 52 and self.card_choices() >> code & 1 == 1
        if d is _OFFER:
            code -= OFFER_BASE
            return code == NO_CARD or (0 <= code < 52 and self.card_choices() >> code & 1 == 1)
        if d is _SWALLOW:
            return code in (LEAVE, TAKE)
        return d is not None and code in self.legal_codes()

    # -- the checked path -------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a seat's ``action`` if the rules allow it — the test of :meth:`allows`,
        on the hidden part filled in — else raise ``IllegalAction`` naming seat and move
        (:mod:`.explain`). A refused action leaves the deal untouched."""
        seat, d = self.to_act, self.awaiting
        if seat is not None and action.seat == seat:
            # by frequency: answers, plays, offers, each tested as allows() does
            if d is _ANSWER and type(action) is Answer:
                card = action.card
                if card is None:
                    self._decline(seat)
                    return
                if type(card) is Card and (self.hands[seat] & self.offer_mask) >> card.index & 1:
                    index = card.index
                    self._accept(seat, index, CARD_SUIT[index] == CARD_SUIT[self.offer_card])
                    return
            elif d is _PLAY and type(action) is Play:
                card, hand = action.card, self.hands[seat]
                if type(card) is Card and (hand & self.follow or hand) >> card.index & 1:
                    self.play_card(seat, card.index)
                    return
            elif d is _OFFER and type(action) is Offer:
                card = action.card
                if card is None:
                    self._offer(seat, -1, None)
                    return
                if type(card) is Card and (self.hands[seat] & EXCHANGEABLE_MASK) >> card.index & 1:
                    self._offer(seat, card.index, CARD_KINDS[card.index])
                    return
            elif d is not _ANSWER and d is not _PLAY and d is not _OFFER:
                code = code_of(action)
                if self.allows(code):
                    self.step(code)
                    return
        from lodam_p2p.rules.explain import why_illegal  # noqa: PLC0415 -- refusals only

        raise why_illegal(self, action)

    # -- the unchecked path -----------------------------------------------------------

    def step(self, code: int) -> None:
        """Apply the move ``code`` of ``to_act`` — one of :meth:`legal_codes`, unchecked."""
        seat, d = self.to_act, self.awaiting
        if seat is None:
            return
        if d is _PLAY:
            self.play_card(seat, code)
        elif d is _ANSWER:
            if code == DECLINE:
                self._decline(seat)
            else:
                card = code - ANSWER_BASE
                self._accept(seat, card, CARD_SUIT[card] == CARD_SUIT[self.offer_card])
        elif d is _OFFER:
            if code == NO_OFFER:
                self._offer(seat, -1, None)
            else:
                self._offer(seat, code - OFFER_BASE, CARD_KINDS[code - OFFER_BASE])
        elif d is _SWALLOW:
            self._swallow(code == TAKE)
        elif d is _DECLARE:
            if code == DECLARE_PASS_CODE:
                self._declare(False, None)
            else:
                self._declare(True, None if code == DECLARE_ALONE else code - DECLARE_BASE)
        elif d is _CHALLENGE:
            self._challenge(None if code == NO_CHALLENGE else code - CHALLENGE_BASE)

    # -- transitions: each applies a move already known to be legal -------------------

    def _reset_trick(self) -> None:
        self.trick = []
        self.led = self.hi_led_seat = self.hi_trump_seat = self.winner = -1
        self.hi_led_str = self.hi_trump_str = -1
        self.trick_points = self.follow = 0
        self.renounced = False

    def _begin_trick(self) -> None:
        rule = self.exchange_rule
        window = rule is _EVERY or (rule is _FIRST and self.tricks_played == 0)
        self.to_act, self.awaiting = self.leader, _OFFER if window else _PLAY

    def _offer(self, seat: int, card: int, kind: Kind | None) -> None:
        """``seat`` offers ``card`` (-1 where not known) of ``kind``; ``None``: no offer."""
        if kind is None:
            following = self.to_act = self.left[seat]
            self.awaiting = _PLAY if following == self.leader else _OFFER
            return
        self.offerer, self.offer_kind, self.offer_card = seat, kind, card
        self.offer_mask = KIND_MASK_OF[card] if card >= 0 else kind_mask(kind)
        self.to_act, self.awaiting = self.left[seat], _ANSWER

    def _decline(self, seat: int) -> None:
        following = self.left[seat]
        if following != self.offerer:
            self.to_act = following
        else:
            self._settle(None, -1, False)

    def _accept(self, seat: int, card: int, void: bool) -> None:
        """``seat`` accepts with ``card`` (-1 where not known); ``void``: both cards of
        one suit, so nothing changes hands."""
        if card >= 0 and not void:
            swap = (1 << card) | (1 << self.offer_card)
            hands = self.hands
            hands[self.offerer] ^= swap
            hands[seat] ^= swap
        self._settle(seat, card, void)

    def _settle(self, acceptor: int | None, card: int, void: bool) -> None:
        offerer, kind = self.offerer, self.offer_kind
        assert kind is not None
        row = (offerer, kind, acceptor, void, self.tricks_played, self.offer_card, card)
        self._exchange_log.append(row)
        self.offerer, self.offer_kind, self.offer_mask, self.offer_card = -1, None, 0, -1
        following = self.to_act = self.left[offerer]
        self.awaiting = _PLAY if following == self.leader else _OFFER

    def play_card(self, seat: int, index: int) -> None:
        """``seat`` (which must be ``to_act``) plays card ``index``: the transition of a
        play, unchecked — the rollouts' shortcut past :meth:`step`."""
        self.hands[seat] &= _ALL_BUT[index]
        self.played |= _BIT[index]
        trick = self.trick
        trick.append(index)
        suit = CARD_SUIT[index]
        strength = self.strength[index]
        self.trick_points += CARD_POINTS[index]
        led = self.led
        if led < 0:
            self.led = led = suit
            self.follow = SUIT_MASK[suit]
            self.hi_led_seat, self.hi_led_str = seat, strength
        elif suit == led:
            if strength > self.hi_led_str:
                self.hi_led_seat, self.hi_led_str = seat, strength
        else:
            self.renounced = True
            if self.trump_suit < 0:  # the first renounce turns the talon top
                self.trump_suit = CARD_SUIT[self.talon_top]
                if self.trump_suit == led:  # the cards already down are trumps
                    self.hi_trump_seat, self.hi_trump_str = self.hi_led_seat, self.hi_led_str
        if suit == self.trump_suit and strength > self.hi_trump_str:
            self.hi_trump_seat, self.hi_trump_str = seat, strength
        if len(trick) < self.m:
            self.to_act = self.left[seat]
            return
        # the trick is complete: a trump wins it, else the highest card of the led suit
        trumped = self.hi_trump_seat >= 0 and self.trump_suit != led
        winner = self.hi_trump_seat if self.hi_trump_seat >= 0 else self.hi_led_seat
        self.winner = winner
        if self.renounced if self.trump_memory else trumped:
            self.to_act, self.awaiting = self.hi_led_seat, _SWALLOW
        else:
            self._take(winner, False)

    def _swallow(self, take: bool) -> None:
        seat, winner = self.to_act, self.winner
        if take and seat != winner:
            assert seat is not None
            self._take(seat, True)
        else:
            self._take(winner, False)

    def _take(self, taker: int, swallowed: bool) -> None:
        gained = self.trick_points
        self.points[taker] += gained
        self._trick_log.append((self.leader, tuple(self.trick), taker, gained, swallowed))
        self._reset_trick()
        self.leader = taker
        self.tricks_played += 1
        if self.declare_out:
            self.to_act, self.awaiting = taker, _DECLARE
        elif self.points[taker] >= self.out_at:
            self._end_out(taker, f"seat {taker} reached {self.points[taker]} points")
        elif self.tricks_played == self.hand_size:
            self._end_by_points()
        else:
            self._begin_trick()

    def _declare(self, out: bool, challenge: int | None) -> None:
        seat = self.to_act
        assert seat is not None
        if out:
            self._end_declared(seat, challenge)
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

    def _end_declared(self, seat: int, challenged: int | None) -> None:
        held = self.points[seat]
        if challenged is None:
            self._end_out(seat, f"seat {seat} declared out with {held} points")
        elif self.points[challenged] >= self.out_at:
            self._end_shown(challenged, seat)
        else:
            self._end_out(
                seat,
                f"seat {seat} declared out with {held} points; "
                f"seat {challenged} showed only {self.points[challenged]}",
            )

    def _next_challenge(self) -> None:
        if self.challenge_queue:
            self.to_act, self.awaiting = self.challenge_queue.pop(0), _CHALLENGE
        elif self.tricks_played == self.hand_size:
            self._end_by_points()
        else:
            self._begin_trick()

    def _challenge(self, target: int | None) -> None:
        seat = self.to_act
        assert seat is not None
        if target is not None and self.points[target] >= self.out_at:
            self._end_shown(target, seat)
        else:
            self._next_challenge()

    def _end_shown(self, challenged: int, challenger: int) -> None:
        shown = self.points[challenged]
        reason = f"seat {challenged} showed {shown} points when challenged by seat {challenger}"
        self._end_out(challenged, reason)

    def _end_out(self, seat: int, reason: str) -> None:
        self._finish(seat, (seat,), reason)

    def _end_by_points(self) -> None:
        top = max(self.points[s] for s in self.order)
        most = tuple(s for s in self.order if self.points[s] == top)
        if len(most) == 1:
            reason = f"seat {most[0]} took the most points, {top}"
        else:
            names = ", ".join(str(s) for s in sorted(most))
            reason = f"seats {names} tied for most with {top}"
        self._finish(None, most, reason)

    def _finish(self, out: int | None, marked: tuple[int, ...], reason: str) -> None:
        step = 1 if self.winning else -1
        change = [0] * self.players
        for seat in marked:
            change[seat] = step
        self.is_over, self.out, self.reason = True, out, reason
        self.counter_change = tuple(change)
        self.to_act = self.awaiting = None


#: ``1 << i`` and its complement within the pack, built once (big-integer shifts cost)
_BIT = tuple(1 << i for i in range(52))
_ALL_BUT = tuple(FULL_MASK ^ bit for bit in _BIT)

_COPIED = {"alphabet", "hands", "points", "trick", "challenge_queue", "_trick_log", "_tricks",
           "_exchange_log", "_exchanges"}
_SHARED = tuple(name for name in DealMachine.__slots__ if name not in _COPIED)


def _straight_copy(names: Sequence[str]) -> Callable[[Any, Any], None]:
    """A function setting each of ``names`` of its second argument from its first,
    written out line by line (a search copies a deal at every iteration, and plain
    attribute statements are several times faster than a loop of getattr/setattr)."""
    lines = [f"    dst.{name} = src.{name}" for name in names]
    namespace: dict[str, Any] = {}
    exec("def copy(src, dst):\n" + "\n".join(lines), namespace)
    function: Callable[[Any, Any], None] = namespace["copy"]
    return function


_copy_shared = _straight_copy(_SHARED)
