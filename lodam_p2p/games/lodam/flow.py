"""The flow of a deal: the transitions of the deal machine, move by move.

:class:`TrickFlow` holds the state every deal machine keeps (declared here, stored in
the slots of :class:`~lodam_p2p.games.lodam.machine.DealMachine`) and the transitions that
apply a move already known to be legal. The machine's checked ``apply`` and unchecked
``step`` both end here, so there is one flow for the engine and the search.

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

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lodam_p2p.games.lodam.actions import Decision
from lodam_p2p.games.lodam.cards import CARD_SUIT, Kind, PlayFacts
from lodam_p2p.games.lodam.codes import KIND_MASK_OF, SUIT_MASK, kind_mask
from lodam_p2p.games.lodam.options import ExchangeRule, Options

#: The decisions awaited, as module constants (the hot paths compare them by identity).
AWAIT_OFFER = Decision.OFFER
AWAIT_ANSWER = Decision.ANSWER
AWAIT_PLAY = Decision.PLAY
AWAIT_SWALLOW = Decision.SWALLOW
AWAIT_DECLARE = Decision.DECLARE
AWAIT_CHALLENGE = Decision.CHALLENGE
_EVERY = ExchangeRule.EVERY_TRICK
_FIRST = ExchangeRule.FIRST_TRICK

#: A resolved offer as logged: offerer, kind, acceptor, void, before which trick, and
#: the offered and accepting cards (-1 where not known).
ExchangeRow = tuple[int, Kind, "int | None", bool, int, int, int]
#: A completed trick as logged: leader, card indices in play order (never changed once
#: logged), taker, points, swallowed.
TrickRow = tuple[int, Sequence[int], int, int, bool]


class TrickFlow:
    """The state of a deal and its transitions (see the module docstring); a base of
    :class:`~lodam_p2p.games.lodam.machine.DealMachine`, which holds the slots."""

    if not TYPE_CHECKING:  # the slots are the machine's; hidden from the type checker,
        __slots__ = ()  # which would take an empty tuple here for "no attributes at all"

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
    facts: tuple[PlayFacts, ...]  #: what playing each card changes, by card index
    out_at: int
    declare_out: bool
    trump_memory: bool
    winning: bool
    exchange_rule: ExchangeRule
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

    @property
    def played(self) -> int:
        """Mask of every card played so far (worked out from the tricks when asked:
        plays do not keep it)."""
        mask = 0
        for row in self._trick_log:
            for index in row[1]:
                mask |= _BIT[index]
        for index in self.trick:
            mask |= _BIT[index]
        return mask

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
        self.to_act, self.awaiting = self.leader, AWAIT_OFFER if window else AWAIT_PLAY

    def _offer(self, seat: int, card: int, kind: Kind | None) -> None:
        """``seat`` offers ``card`` (-1 where not known) of ``kind``; ``None``: no offer."""
        if kind is None:
            following = self.to_act = self.left[seat]
            self.awaiting = AWAIT_PLAY if following == self.leader else AWAIT_OFFER
            return
        self.offerer, self.offer_kind, self.offer_card = seat, kind, card
        self.offer_mask = KIND_MASK_OF[card] if card >= 0 else kind_mask(kind)
        self.to_act, self.awaiting = self.left[seat], AWAIT_ANSWER

    def _decline(self, seat: int) -> None:
        following = self.left[seat]
        if following != self.offerer:
            self.to_act = following
        else:
            self._settle(None, -1, False)

    def _settle(self, acceptor: int | None, card: int, void: bool) -> None:
        """The offer on the table is resolved: ``acceptor`` accepts with ``card`` (-1
        where not known; ``void``: both cards of one suit, so nothing changes hands), or
        nobody did (``None``). The window goes on from the offerer's left."""
        offerer, offered = self.offerer, self.offer_card
        if card >= 0 and not void:
            swap = _BIT[card] | _BIT[offered]
            hands = self.hands
            hands[offerer] ^= swap
            hands[acceptor] ^= swap  # type: ignore[index]
        row = (offerer, self.offer_kind, acceptor, void, self.tricks_played, offered, card)
        self._exchange_log.append(row)  # type: ignore[arg-type]  # an offer is on the table
        self.offerer, self.offer_kind, self.offer_mask, self.offer_card = -1, None, 0, -1
        following = self.to_act = self.left[offerer]
        self.awaiting = AWAIT_PLAY if following == self.leader else AWAIT_OFFER

    def play_card(self, seat: int, index: int) -> None:
        """``seat`` (which must be ``to_act``) plays card ``index``: the transition of a
        play, unchecked — the rollouts' shortcut past :meth:`step`."""
        rest, suit, points, strength = self.facts[index]
        self.hands[seat] &= rest
        trick = self.trick
        trick.append(index)
        self.trick_points += points
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
        trumper = self.hi_trump_seat
        winner = self.winner = trumper if trumper >= 0 else self.hi_led_seat
        if self.renounced if self.trump_memory else trumper >= 0 and self.trump_suit != led:
            self.to_act, self.awaiting = self.hi_led_seat, AWAIT_SWALLOW
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
        points = self.points
        points[taker] += gained
        # the trick's list is logged as it is: a new one takes its place
        self._trick_log.append((self.leader, self.trick, taker, gained, swallowed))
        # the next trick, as _reset_trick and _begin_trick (written out: once a trick)
        self.trick = []
        self.led = self.hi_led_seat = self.hi_trump_seat = self.winner = -1
        self.hi_led_str = self.hi_trump_str = -1
        self.trick_points = self.follow = 0
        self.renounced = False
        self.leader = taker
        played = self.tricks_played = self.tricks_played + 1
        if self.declare_out:
            self.to_act, self.awaiting = taker, AWAIT_DECLARE
        elif points[taker] >= self.out_at:
            self._end_out(taker, f"seat {taker} reached {points[taker]} points")
        elif played == self.hand_size:
            self._end_by_points()
        else:  # a later trick: a window only when there is one before every trick
            self.to_act = taker
            self.awaiting = AWAIT_OFFER if self.exchange_rule is _EVERY else AWAIT_PLAY

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
            self.to_act, self.awaiting = self.challenge_queue.pop(0), AWAIT_CHALLENGE
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


#: ``1 << i``, built once (big-integer shifts cost)
_BIT = tuple(1 << i for i in range(52))
