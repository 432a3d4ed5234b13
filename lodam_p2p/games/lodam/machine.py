"""The one machine of a deal: its state, its legal moves and its transitions.

Theory of operation
-------------------
A deal is one state machine, :class:`DealMachine`, used in two ways — as a chess
library's board serves both its pseudo-legal and its legal moves from one generator:

* **checked**: :class:`~lodam_p2p.games.lodam.public.PublicDeal` takes public events (a card
  played face up, an offer's kind, an answer's outcome) and
  :class:`~lodam_p2p.games.lodam.deal.Deal` takes a seat's actions (:meth:`~DealMachine.apply`)
  or their codes (:meth:`~DealMachine.apply_code`, the cheaper way in for a program
  that picks from :meth:`~DealMachine.legal_codes`); each checks what it is given, says
  why it refuses, and keeps the typed record;
* **unchecked**: a search plays thousands of deal endings per decision. It fills in the
  hidden part (:meth:`DealMachine.with_hidden`), asks :attr:`~DealMachine.legal`
  and applies small integer codes (:mod:`lodam_p2p.games.lodam.codes`) with
  :meth:`~DealMachine.step`, trusting itself to pick them from the list.

Both go through the same generator (:meth:`~DealMachine.legal_codes`; :attr:`~DealMachine.legal`
spells its codes in the machine's alphabet: interned actions for a full deal, codes
otherwise), the same test of one move (:meth:`~DealMachine.allows`) and the same
transitions, so the paths cannot drift apart.

The state is plain integers: hands are 52-bit masks, suits and seats small ints, -1 for
"none yet". The *hidden part* — ``hands``, ``talon_top`` (the talon's top card) and
``offer_card`` (the card of the offer on the table) — is zero and -1 where it is not
known, as in a deal tracked from announcements. Whose turn it is never depends on it:
the only transitions that read it are a renounce turning the trump (whose card is then
public) and an answer swapping the traded cards.

The transitions that carry a deal from move to move live in :mod:`.flow`
(:class:`~lodam_p2p.games.lodam.flow.TrickFlow`, a base of the machine).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from lodam_p2p.games.lodam.actions import NO_CARD, Action, IllegalAction
from lodam_p2p.games.lodam.cards import (
    CARD_KINDS,
    CARD_SUIT,
    EXCHANGEABLE_MASK,
)
from lodam_p2p.games.lodam.codes import (
    ANSWER_BASE,
    CHALLENGE_BASE,
    DECLARE_ALONE,
    DECLARE_BASE,
    DECLARE_PASS_CODE,
    DECLINE,
    NO_CHALLENGE,
    NO_OFFER,
    OFFER_BASE,
    TAKE,
    code_of,
)
from lodam_p2p.games.lodam.flow import (
    AWAIT_ANSWER,
    AWAIT_CHALLENGE,
    AWAIT_DECLARE,
    AWAIT_OFFER,
    AWAIT_PLAY,
    AWAIT_SWALLOW,
    TrickFlow,
)
from lodam_p2p.games.lodam.legal import (
    ACTION_MOVES,
    ANSWERING,
    CODE_MOVES,
    FOLLOWING,
    OFFERING,
    SWALLOW_CODES,
    challenge_codes,
    declaration_codes,
    play_codes,
    spell,
)
from lodam_p2p.games.lodam.options import Options
from lodam_p2p.games.lodam.seating import Seating

M = TypeVar("M")
Self = TypeVar("Self", bound="DealMachine[Any]")
Other = TypeVar("Other", bound="DealMachine[Any]")



class DealMachine(TrickFlow, Generic[M]):
    """The state and transitions of one deal (see the module docstring)."""

    __slots__ = (  # noqa: RUF023 -- grouped by role
        # the table, fixed for the deal (copies share it)
        "active", "dealer", "declare_out", "exchange_rule", "hand_size", "left", "lives",
        "facts", "m", "options", "order", "out_at", "pack_size", "players", "strength",
        "talon_size", "trump_memory", "watchers", "winning",
        # the hidden part, and the alphabet the legal moves are spelled in
        "alphabet", "hands", "offer_card", "talon_top",
        # the deal as everybody sees it
        "awaiting", "challenge_queue", "counter_change", "hi_led_seat", "hi_led_str",
        "follow", "hi_trump_seat", "hi_trump_str", "is_over", "leader", "led", "offer_kind",
        "offer_mask", "offerer", "out", "points", "reason", "renounced",
        "to_act", "trick", "trick_points", "tricks_played", "trump_suit", "winner",
        # records: logged rows and, built from them on demand, typed records
        "_exchange_log", "_exchanges", "_trick_log", "_tricks",
    )

    alphabet: Sequence[Sequence[M]]  #: per seat, how :attr:`legal` spells each code

    # -- construction -----------------------------------------------------------------

    def _setup(
        self, options: Options, dealer: int, seating: Seating, alphabet: Sequence[Sequence[M]]
    ) -> None:
        """A deal about to begin at an already checked ``seating``."""
        self.alphabet = alphabet
        self.options, self.players, self.dealer = options, len(seating.lives), dealer
        self.lives, self.active, self.watchers = seating.lives, seating.active, seating.watchers
        self.left, self.order, self.m = seating.left, seating.order, len(seating.order)
        self.hand_size, self.pack_size = seating.hand_size, seating.pack_size
        self.talon_size = self.pack_size - self.m * self.hand_size
        self.strength, self.facts = seating.strength, seating.facts
        self.out_at, self.declare_out = options.out_at, options.declare_out
        self.trump_memory, self.winning = options.trump_memory, options.winning
        self.exchange_rule = options.exchanges
        self.hands, self.talon_top, self.offer_card = [0] * self.players, -1, -1
        self.points = [0] * self.players
        self.tricks_played, self.trump_suit = 0, -1
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

    def copy_as(self, cls: type[Other], alphabet: Sequence[Sequence[Any]]) -> Other:
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
        if d is AWAIT_PLAY:
            return hand & self.follow or hand
        if d is AWAIT_ANSWER:
            return hand & self.offer_mask
        if d is AWAIT_OFFER:
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

    def legal_codes(self) -> tuple[int, ...]:
        """Every legal move of ``to_act`` as a code, in a fixed order, defaults first;
        empty once the deal is over. The one generator: :attr:`legal` spells it."""
        # by frequency; the commonest questions are one look-up in a Spelled table
        d = self.awaiting
        if d is AWAIT_ANSWER:
            return ANSWERING[self.hands[self.to_act] & self.offer_mask]  # type: ignore[index]
        if d is AWAIT_PLAY:
            hand = self.hands[self.to_act]  # type: ignore[index]
            following = hand & self.follow
            if following:
                return FOLLOWING[following]
            return play_codes(hand)
        if d is AWAIT_OFFER:
            return OFFERING[self.hands[self.to_act] & EXCHANGEABLE_MASK]  # type: ignore[index]
        if d is AWAIT_SWALLOW:
            return SWALLOW_CODES
        seat = self.to_act
        if seat is None:
            return ()
        others = self.challenge_targets(seat)
        if d is AWAIT_DECLARE:
            return declaration_codes(self.points[seat] >= self.out_at, others)
        return challenge_codes(others)

    @property
    def legal(self) -> tuple[M, ...]:
        """Every legal move of ``to_act``, spelled in this machine's ``alphabet``
        (interned actions for a full deal, codes otherwise): :meth:`legal_codes`."""
        codes = self.legal_codes()
        if self.alphabet is CODE_MOVES or not codes:
            return codes  # type: ignore[return-value]
        return spell(self.alphabet[self.to_act], codes)  # type: ignore[index]

    def allows(self, code: int) -> bool:
        """Whether ``code`` is among :meth:`legal_codes` (without spelling them all)."""
        d = self.awaiting
        if d is AWAIT_ANSWER:
            code -= ANSWER_BASE
            return code == NO_CARD or (0 <= code < 52 and self.card_choices() >> code & 1 == 1)
        if d is AWAIT_PLAY:
            return 0 <= code < 52 and self.card_choices() >> code & 1 == 1
        if d is AWAIT_OFFER:
            code -= OFFER_BASE
            return code == NO_CARD or (0 <= code < 52 and self.card_choices() >> code & 1 == 1)
        if d is AWAIT_SWALLOW:
            return code in SWALLOW_CODES
        return d is not None and code in self.legal_codes()

    # -- the checked path -------------------------------------------------------------

    def apply_code(self, code: int) -> None:
        """Apply the move ``code`` of ``to_act`` if the rules allow it — the test of
        :meth:`allows`, on the hidden part filled in — else raise ``IllegalAction``
        naming seat and move (:mod:`.explain`). A refused move leaves the deal untouched.
        :meth:`apply` is the same with a seat's action (its code, from ``to_act``)."""
        # answers, plays and offers tested as allows() does, in order of frequency
        d, seat = self.awaiting, self.to_act
        if d is AWAIT_ANSWER:
            if code == DECLINE:
                self._decline(seat)  # type: ignore[arg-type]
                return
            card = code - ANSWER_BASE
            if card >= 0 and (self.hands[seat] & self.offer_mask) >> card & 1:  # type: ignore[index]
                self._settle(seat, card, CARD_SUIT[card] == CARD_SUIT[self.offer_card])
                return
        elif d is AWAIT_PLAY:
            if code >= 0:
                hand = self.hands[seat]  # type: ignore[index]
                if (hand & self.follow or hand) >> code & 1:
                    self.play_card(seat, code)  # type: ignore[arg-type]
                    return
        elif d is AWAIT_OFFER:
            if code == NO_OFFER:
                self._offer(seat, -1, None)  # type: ignore[arg-type]
                return
            card = code - OFFER_BASE
            if card >= 0 and (self.hands[seat] & EXCHANGEABLE_MASK) >> card & 1:  # type: ignore[index]
                self._offer(seat, card, CARD_KINDS[card])  # type: ignore[arg-type]
                return
        elif self.allows(code):
            self.step(code)
            return
        raise self._refusal(code)

    def apply(self, action: Action) -> None:
        """Apply a seat's ``action`` if the rules allow it — from ``to_act`` only, its
        code passing :meth:`allows` — else raise ``IllegalAction`` naming seat and move
        (:mod:`.explain`)."""
        if action.seat == self.to_act:  # never so once the deal is over (``to_act`` None)
            code = code_of(action)
            if code >= 0 and self.allows(code):
                self.step(code)
                return
        from lodam_p2p.games.lodam.explain import why_illegal  # noqa: PLC0415 -- refusals only

        raise why_illegal(self, action)

    def _refusal(self, code: object) -> IllegalAction:
        """The error for a code :meth:`apply_code` refused: the action it spells for
        ``to_act``, explained, or a code that spells none."""
        from lodam_p2p.games.lodam.explain import why_illegal  # noqa: PLC0415 -- refusals only

        seat = self.to_act
        if seat is None:
            return IllegalAction(-1, None, "the deal is over")
        row = ACTION_MOVES[seat]
        if type(code) is int and 0 <= code < len(row) and row[code] is not None:
            return why_illegal(self, row[code])
        return IllegalAction(seat, None, f"{code!r} is no move")

    # -- the unchecked path -----------------------------------------------------------

    def step(self, code: int) -> None:
        """Apply the move ``code`` of ``to_act`` — one of :meth:`legal_codes`, unchecked."""
        seat, d = self.to_act, self.awaiting
        if seat is None:
            return
        if d is AWAIT_PLAY:
            self.play_card(seat, code)
        elif d is AWAIT_ANSWER:
            if code == DECLINE:
                self._decline(seat)
            else:
                card = code - ANSWER_BASE
                self._settle(seat, card, CARD_SUIT[card] == CARD_SUIT[self.offer_card])
        elif d is AWAIT_OFFER:
            if code == NO_OFFER:
                self._offer(seat, -1, None)
            else:
                self._offer(seat, code - OFFER_BASE, CARD_KINDS[code - OFFER_BASE])
        elif d is AWAIT_SWALLOW:
            self._swallow(code == TAKE)
        elif d is AWAIT_DECLARE:
            if code == DECLARE_PASS_CODE:
                self._declare(False, None)
            else:
                self._declare(True, None if code == DECLARE_ALONE else code - DECLARE_BASE)
        elif d is AWAIT_CHALLENGE:
            self._challenge(None if code == NO_CHALLENGE else code - CHALLENGE_BASE)

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
