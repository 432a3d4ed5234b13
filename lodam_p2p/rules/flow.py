"""The machine of one deal: whose decision comes next, and what each event changes.

:class:`DealFlow` is the state and the transitions of a deal as everybody sees it; it is
the base of :class:`~lodam_p2p.rules.public.PublicDeal`, which adds construction and the
checked public events. The flow of one trick (RULES.md 5–7)::

    [exchange window] each active seat from the leader gets OFFER; an offer of a kind
        asks the others in turn from the offerer's left (ANSWER) until one accepts
    PLAY × active seats, from the leader; the first renounce turns the talon top (trump)
    [SWALLOW] to the highest card of the led suit when a trump won the trick
        (under trump_memory: after every trick with a renounce)
    the taker scores; default mode: out at ``out_at`` ends the deal at once
    [declare_out] DECLARE for each active seat from the new leader, then CHALLENGE
        for each eliminated watcher
    after the last trick: most points loses (ties all lose)

Each ``_do_*`` method applies an event already known to be legal and moves to the next
decision. The trick's winner is tracked card by card (highest of the led suit, highest
trump) so that finishing a trick needs no second pass over it.
"""

from __future__ import annotations

from lodam_p2p.rules.actions import Decision
from lodam_p2p.rules.cards import CARD_POINTS, CARD_SUIT, KIND_MASK, Card, Kind, Suit
from lodam_p2p.rules.options import ExchangeRule, Options
from lodam_p2p.rules.records import PublicExchange, TrickRecord

_OFFER = Decision.OFFER
_ANSWER = Decision.ANSWER
_PLAY = Decision.PLAY
_SWALLOW = Decision.SWALLOW
_DECLARE = Decision.DECLARE
_CHALLENGE = Decision.CHALLENGE


class DealFlow:
    """State and transitions of a deal as everybody sees it (see the module docstring)."""

    __slots__ = (
        "_challenge_queue",
        "_exchange_log",
        "_exchanges",
        "_hi_led_seat",
        "_hi_led_str",
        "_hi_trump_seat",
        "_hi_trump_str",
        "_led",
        "_m",
        "_offer_kind",
        "_offer_mask",
        "_offerer",
        "_played",
        "_renounced",
        "_trick_log",
        "_trick_points",
        "_tricks",
        "_trump",
        "_winner",
        "active",
        "awaiting",
        "counter_change",
        "current_trick",
        "dealer",
        "hand_size",
        "hand_sizes",
        "is_over",
        "leader",
        "left",
        "lives",
        "options",
        "order",
        "out",
        "pack_size",
        "players",
        "points",
        "reason",
        "strength",
        "talon_size",
        "to_act",
        "tricks_played",
        "trump",
        "trump_card",
        "watchers",
    )

    options: Options
    players: int
    dealer: int
    lives: tuple[int, ...]
    active: tuple[bool, ...]  #: dealt in this deal
    watchers: tuple[bool, ...]  #: eliminated seats still watching (may challenge)
    order: tuple[int, ...]  #: active seats in dealing order, eldest first
    left: tuple[int, ...]  #: for each seat, the next active seat to its left
    hand_size: int
    pack_size: int
    hand_sizes: list[int]
    talon_size: int
    strength: tuple[int, ...]
    trump: Suit | None
    trump_card: Card | None
    leader: int
    current_trick: list[tuple[int, Card]]
    points: list[int]
    tricks_played: int
    to_act: int | None
    awaiting: Decision | None
    is_over: bool
    out: int | None
    counter_change: tuple[int, ...]
    reason: str
    # hidden from nobody, but internal to the trick and window flow:
    _played: int  #: bit mask of the cards played
    _led: int  #: suit led to the current trick, -1 before the lead
    _trump: int  #: trump suit, -1 before the turn
    _offerer: int
    _offer_kind: Kind | None
    _hi_led_seat: int
    _hi_led_str: int
    _hi_trump_seat: int
    _hi_trump_str: int
    _trick_points: int
    _renounced: bool
    _winner: int  #: the trick's winner before any swallow
    _challenge_queue: list[int]
    _m: int  #: active seats, so cards per trick
    _offer_mask: int  #: mask of the cards of the offered kind
    # Records are logged as plain tuples on the hot path and turned into frozen
    # dataclasses only when someone reads ``tricks`` or ``exchanges``.
    _trick_log: list[tuple[int, tuple[tuple[int, Card], ...], int, int, bool]]
    _tricks: list[TrickRecord]
    _exchange_log: list[tuple[int, Kind, int | None, bool, int]]
    _exchanges: list[PublicExchange]

    # -- the machine ------------------------------------------------------------------

    def _reset_trick(self) -> None:
        self.current_trick = []
        self._led = -1
        self._hi_led_seat = self._hi_trump_seat = -1
        self._hi_led_str = self._hi_trump_str = -1
        self._trick_points = 0
        self._renounced = False
        self._winner = -1

    def _ask(self, seat: int, decision: Decision) -> None:
        self.to_act = seat
        self.awaiting = decision

    def _begin_trick(self) -> None:
        rule = self.options.exchanges
        if rule is ExchangeRule.EVERY_TRICK or (
            rule is ExchangeRule.FIRST_TRICK and self.tricks_played == 0
        ):
            self._ask(self.leader, _OFFER)
        else:
            self._ask(self.leader, _PLAY)

    # The window's methods run at nearly every decision of a deal, so they set
    # ``to_act``/``awaiting`` directly rather than through ``_ask``.

    def _do_offer(self, seat: int, kind: Kind | None) -> None:
        if kind is None:
            following = self.to_act = self.left[seat]
            self.awaiting = _PLAY if following == self.leader else _OFFER
        else:
            self._offerer, self._offer_kind = seat, kind
            self._offer_mask = KIND_MASK[kind]
            self.to_act, self.awaiting = self.left[seat], _ANSWER

    def _do_answer(self, seat: int, accepted: bool, void: bool) -> None:
        offerer = self._offerer
        if not accepted:
            following = self.left[seat]
            if following != offerer:
                self.to_act = following
                return
        kind = self._offer_kind
        assert kind is not None
        acceptor = seat if accepted else None
        self._exchange_log.append((offerer, kind, acceptor, void, len(self._trick_log)))
        self._offerer, self._offer_kind = -1, None
        following = self.to_act = self.left[offerer]
        self.awaiting = _PLAY if following == self.leader else _OFFER

    def _do_play(self, seat: int, card: Card, trump_card: Card | None) -> None:
        index = card.index
        suit = CARD_SUIT[index]
        strength = self.strength[index]
        self.current_trick.append((seat, card))
        self.hand_sizes[seat] -= 1
        self._played |= 1 << index
        self._trick_points += CARD_POINTS[index]
        led = self._led
        if led < 0:
            self._led = led = suit
            self._hi_led_seat, self._hi_led_str = seat, strength
        elif suit == led:
            if strength > self._hi_led_str:
                self._hi_led_seat, self._hi_led_str = seat, strength
        else:
            self._renounced = True
            if self._trump < 0:
                self._turn_trump(trump_card)
        if suit == self._trump and strength > self._hi_trump_str:
            self._hi_trump_seat, self._hi_trump_str = seat, strength
        if len(self.current_trick) == self._m:
            self._finish_trick()
        else:
            self.to_act = self.left[seat]

    def _turn_trump(self, trump_card: Card | None) -> None:
        """The first renounce: the talon top shows the trump for the rest of the deal.
        If the led suit is trump, the cards already down are trumps in this trick."""
        assert trump_card is not None
        self.trump_card = trump_card
        self._trump = CARD_SUIT[trump_card.index]
        self.trump = Suit(self._trump)
        if self._trump == self._led:
            self._hi_trump_seat, self._hi_trump_str = self._hi_led_seat, self._hi_led_str

    def _finish_trick(self) -> None:
        trumped = self._hi_trump_seat >= 0 and self._trump != self._led
        winner = self._hi_trump_seat if self._hi_trump_seat >= 0 else self._hi_led_seat
        self._winner = winner
        ask = self._renounced if self.options.trump_memory else trumped
        if ask:
            self._ask(self._hi_led_seat, _SWALLOW)
        else:
            self._take(winner, False)

    def _do_swallow(self, seat: int, take: bool) -> None:
        winner = self._winner
        if take and seat != winner:
            self._take(seat, True)
        else:
            self._take(winner, False)

    def _take(self, taker: int, swallowed: bool) -> None:
        gained = self._trick_points
        self.points[taker] += gained
        self._trick_log.append((self.leader, tuple(self.current_trick), taker, gained, swallowed))
        self._reset_trick()
        self.leader = taker
        self.tricks_played += 1
        if self.options.declare_out:
            self._ask(taker, _DECLARE)
        elif self.points[taker] >= self.options.out_at:
            self._end_out(taker, f"seat {taker} reached {self.points[taker]} points")
        elif self.tricks_played == self.hand_size:
            self._end_by_points()
        else:
            self._begin_trick()

    def _do_declare(self, seat: int, out: bool, challenge: int | None) -> None:
        if out:
            self._end_declared(seat, challenge)
            return
        following = self.left[seat]
        if following != self.leader:
            self._ask(following, _DECLARE)
            return
        n = self.players
        self._challenge_queue = [
            s for s in ((self.leader + k) % n for k in range(n)) if self.watchers[s]
        ]
        self._next_challenge()

    def _end_declared(self, seat: int, challenged: int | None) -> None:
        out_at, held = self.options.out_at, self.points[seat]
        if challenged is None:
            self._end_out(seat, f"seat {seat} declared out with {held} points")
        elif self.points[challenged] >= out_at:
            self._end_shown(challenged, seat)
        else:
            self._end_out(
                seat,
                f"seat {seat} declared out with {held} points; "
                f"seat {challenged} showed only {self.points[challenged]}",
            )

    def _next_challenge(self) -> None:
        if self._challenge_queue:
            self._ask(self._challenge_queue.pop(0), _CHALLENGE)
        elif self.tricks_played == self.hand_size:
            self._end_by_points()
        else:
            self._begin_trick()

    def _do_challenge(self, seat: int, target: int | None) -> None:
        if target is not None and self.points[target] >= self.options.out_at:
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
        step = 1 if self.options.winning else -1
        change = [0] * self.players
        for seat in marked:
            change[seat] = step
        self.is_over, self.out, self.reason = True, out, reason
        self.counter_change = tuple(change)
        self.to_act = self.awaiting = None
