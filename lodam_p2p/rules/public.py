"""The deal as every seat sees it: turn order, the trick flow, the public record.

Theory of operation
-------------------
Nobody at a real table knows the other hands, yet everybody knows whose turn it is. The
engine keeps that property by construction: :class:`PublicDeal` holds *only* public
facts (hand sizes, cards once played, offer kinds and outcomes, the trump card once
turned, swallows, declarations) and alone decides who acts next and on what. The full
:class:`~lodam_p2p.rules.deal.Deal` adds the hidden part (hands, talon, the true exchange
cards) and the checks that need it, then drives this same machine. So turn order can never
depend on a hidden card, and a network peer that tracks a ``PublicDeal`` from announced
events stays in step with the audit that later replays the full ``Deal``.

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

Each ``_do_*`` method applies an event already known to be legal and moves to the next
decision; the public methods (``play``, ``offer`` …) check what public knowledge can
check first.
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
from lodam_p2p.rules.cards import (
    CARD_POINTS,
    CARD_SUIT,
    KIND_MASK,
    Card,
    Kind,
    Suit,
    strength_table,
)
from lodam_p2p.rules.options import MAX_PLAYERS, MIN_PLAYERS, ExchangeRule, Options
from lodam_p2p.rules.records import PublicExchange, PublicOffer, TrickRecord

_OFFER = Decision.OFFER
_ANSWER = Decision.ANSWER
_PLAY = Decision.PLAY
_SWALLOW = Decision.SWALLOW
_DECLARE = Decision.DECLARE
_CHALLENGE = Decision.CHALLENGE


class PublicDeal:
    """One deal tracked from public events only (see the module docstring)."""

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
    _exchange_log: list[tuple[int, Kind, int | None, bool]]
    _exchanges: list[PublicExchange]

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
        for name in PublicDeal.__slots__:
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
            built.extend(PublicExchange(*row) for row in log[len(built) :])
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
            raise IllegalAction(seat, action, self.turn_reason())

    def turn_reason(self) -> str:
        """Why a seat may not act now: whose turn it is and for what."""
        if self.is_over or self.awaiting is None:
            return "the deal is over"
        return f"it is seat {self.to_act}'s turn to {self.awaiting.value}"

    def _check_declaration(self, action: Declare) -> None:
        held = self.points[action.seat]
        if held < self.options.out_at:
            reason = f"a declaration below {self.options.out_at} is refused (holds {held})"
            raise IllegalAction(action.seat, action, reason)
        target = action.challenge
        if target is not None and target not in self.challenge_targets(action.seat):
            raise IllegalAction(action.seat, action, f"seat {target} cannot be challenged")

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
        self._exchange_log.append((offerer, kind, acceptor, void))
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
