"""One deal with every card known: the public deal plus the hidden hands.

:class:`Deal` keeps the hands as bit masks and who holds each card, checks every action
against them and then drives the :class:`~lodam_p2p.games.lorum.public.PublicDeal` it
wraps, which alone decides what comes next. Legal moves are generated first and an
action is accepted exactly when it is among them.

Steps without a choice — the cards of a Quartet run after its lead, a Lorum pass, every
play under ``red_king_blind`` — are taken by the deal itself (``auto=True``, the
default), so ``to_act``/``legal_actions`` only ever show real decisions. With
``auto=False`` they are shown as decisions with one legal action each: that is how the
audit (:func:`first_breach`) replays the public events a table saw against the hands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lodam_p2p.games.kit.rules import check_hand_sizes
from lodam_p2p.games.lorum.actions import (
    ANNOUNCES,
    LAYS_BY_MASK,
    PASSES,
    PLAYS,
    PLAYS_BY_MASK,
    Action,
    Announce,
    Decision,
    IllegalAction,
    Lay,
    MalformedInput,
    Pass,
    Play,
    RulesError,
    actions_of,
)
from lodam_p2p.games.lorum.cards import (
    PACK_MASK,
    RED_KING,
    SET_ASIDE_MASK,
    Card,
    cards_of,
    mask_of,
)
from lodam_p2p.games.lorum.legal import playable, why_illegal
from lodam_p2p.games.lorum.options import Contract, Options
from lodam_p2p.games.lorum.plan import (
    SHORT_HAND,
    DealPlan,
    check_table,
    deal_hands,
    deal_plan,
    full_hand,
)
from lodam_p2p.games.lorum.public import PublicDeal
from lodam_p2p.games.lorum.records import DealResult, TrickRecord
from lodam_p2p.games.lorum.view import PlayerView, build_view

_PLAY, _LAY, _ANNOUNCE = Decision.PLAY, Decision.LAY, Decision.ANNOUNCE


class Deal:
    """A deal in progress with all hidden cards; see the module docstring."""

    __slots__ = ("_auto", "_blind_at", "_dealt", "_hands", "_holder", "_legal", "public")

    public: PublicDeal  #: the public part, advanced in step
    _dealt: tuple[tuple[Card, ...], ...]  #: each seat's cards in dealt order
    _hands: list[int]  #: current hands as card-index masks
    _holder: list[int]  #: the seat dealt each card index (-1: nobody)
    _blind_at: list[int]  #: red_king_blind: how many cards each seat has played
    _legal: tuple[Action, ...] | None
    _auto: bool

    @classmethod
    def start(
        cls, options: Options, contract: Contract, dealer: int, deck: Sequence[Card], *,
        players: int | None = None, plan: DealPlan | None = None, auto: bool = True,
    ) -> Deal:
        """Deal ``deck`` (a shuffled deck, top first: 32 cards, or 30 without ``7S 8S``
        for three players; ``players`` defaults to what the deck says) by ``plan``
        (default: the whole deck, LORUM.md 2). ``MalformedInput`` if the deck is not
        the pack the deal needs."""
        if players is None:
            players = plan.players if plan is not None else 3 if len(deck) == 30 else 4
        check_table(players, dealer)
        plan = plan if plan is not None else deal_plan(players, dealer)
        if plan.players != players or plan.dealer != dealer:
            raise MalformedInput("the deal plan is for another table or dealer")
        if plan.hand_size == SHORT_HAND and contract is not Contract.FIRST_LAST:
            raise MalformedInput(f"a short deal of two cards each is not a deal of {contract}")
        hands = deal_hands(plan, deck)
        public = PublicDeal.start(options, contract, players, dealer, plan.hand_size)
        return cls._assemble(public, hands, [mask_of(h) for h in hands], auto)

    @classmethod
    def from_hands(
        cls, options: Options, contract: Contract, dealer: int,
        hands: Sequence[Sequence[Card]], *, auto: bool = True,
    ) -> Deal:
        """A deal from given hands in dealt order (all the same size: full, or 2 each in
        the short First-and-last). Checked: no card twice, none set aside."""
        players = len(hands)
        check_table(players, dealer)
        dealt = tuple(tuple(h) for h in hands)
        size = len(dealt[0]) if dealt else 0
        _check_hands(dealt, players, size, contract)
        public = PublicDeal.start(options, contract, players, dealer, size)
        return cls._assemble(public, dealt, [mask_of(h) for h in dealt], auto)

    @classmethod
    def _assemble(
        cls, public: PublicDeal, dealt: tuple[tuple[Card, ...], ...], masks: list[int],
        auto: bool,
    ) -> Deal:
        self = cls.__new__(cls)
        self.public, self._dealt, self._auto, self._legal = public, dealt, auto, None
        self._hands = masks
        holder = self._holder = [-1] * 32
        for seat, hand in enumerate(dealt):
            for card in hand:
                holder[card.index] = seat
        self._blind_at = [0] * public.players
        if auto:
            self._force()
        return self

    @classmethod
    def from_public(
        cls, public: PublicDeal, hands: Sequence[Sequence[Card]], *, auto: bool = True,
    ) -> Deal:
        """A full deal at ``public``'s current point from given *current* hands (a search
        samples them from a view; under ``red_king_blind`` in the order they will be
        played). Checked: one hand per seat of the public size, every card still in
        play exactly once. The given hands count as "dealt" for this object."""
        held = tuple(tuple(h) for h in hands)
        _check_world(public, held)
        return cls._assemble(public.copy(), held, [mask_of(h) for h in held], auto)

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search."""
        new = Deal.__new__(Deal)
        new.public = self.public.copy()
        new._dealt, new._holder, new._auto = self._dealt, self._holder, self._auto
        new._hands, new._blind_at = self._hands[:], self._blind_at[:]
        new._legal = self._legal
        return new

    # -- the record -------------------------------------------------------------------

    @property
    def options(self) -> Options:
        """The table options."""
        return self.public.options

    @property
    def contract(self) -> Contract:
        """The contract of this deal."""
        return self.public.contract

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.public.players

    @property
    def dealer(self) -> int:
        """The dealer of this deal."""
        return self.public.dealer

    @property
    def to_act(self) -> int | None:
        """The seat whose step is awaited (also when only its hand says so); ``None``
        once the deal is over."""
        p = self.public
        if p.to_act is not None or p.awaiting_card is None:
            return p.to_act
        return self._holder[p.awaiting_card.index]

    @property
    def awaiting(self) -> Decision | None:
        """The kind of decision awaited."""
        return self.public.awaiting

    @property
    def is_over(self) -> bool:
        """Whether the deal has ended."""
        return self.public.is_over

    @property
    def dealt_hands(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards in dealt order."""
        return self._dealt

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s current hand, in card-index order."""
        return cards_of(self._hands[seat])

    def holder(self, card: Card) -> int | None:
        """The seat dealt ``card`` (``None``: set aside or not dealt)."""
        seat = self._holder[card.index]
        return None if seat < 0 else seat

    @property
    def tricks(self) -> list[TrickRecord]:
        """Completed tricks (a Quartet run is one)."""
        return self.public.tricks

    @property
    def points(self) -> list[int]:
        """Points scored so far, per seat."""
        return self.public.points

    # -- decisions --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act``, in a fixed order (a default first)."""
        found = self._legal
        if found is None:
            found = self._legal = self._generate()
        return list(found)

    def default_action(self) -> Action | None:
        """The default of the awaited decision (not announcing); ``None`` otherwise."""
        p = self.public
        if p.awaiting is _ANNOUNCE:
            return ANNOUNCES[self._holder[RED_KING.index]][0]
        return None

    def apply(self, action: Action) -> None:
        """Apply ``action``; ``IllegalAction`` naming seat and move if the rules forbid it."""
        found = self._legal
        if found is None:
            found = self._generate()
        for candidate in found:
            if candidate is action:
                break
        else:
            if action not in found:
                raise self._refusal(action)
        self._legal = None
        public, seat = self.public, action.seat
        if isinstance(action, Play):
            self._hands[seat] ^= 1 << action.card.index
            if public.blind:
                self._blind_at[seat] += 1
            public._do_play(seat, action.card)
        elif isinstance(action, Lay):
            self._hands[seat] ^= 1 << action.card.index
            public._do_lay(seat, action.card)
        elif isinstance(action, Pass):
            public._do_pass(seat)
        else:
            public._do_announce(seat, action.announced)
        if self._auto:
            self._force()

    def _refusal(self, action: Action) -> RulesError:
        if not isinstance(action, Play | Lay | Pass | Announce):
            return MalformedInput(f"not a Lorum action: {action!r}")
        seat = action.seat
        if isinstance(seat, bool) or not isinstance(seat, int):
            return MalformedInput(f"not a seat: {seat!r}")
        if isinstance(action, Play | Lay) and type(action.card) is not Card:
            return MalformedInput(f"not a card: {action.card!r}")
        nxt = -1
        if isinstance(seat, int) and 0 <= seat < self.players and self.public.blind:
            nxt = self._blind_next(seat).index
        return why_illegal(self.public, self._hands, self._holder, action, nxt)

    def _blind_next(self, seat: int) -> Card:
        return self._dealt[seat][self._blind_at[seat]]

    def _generate(self) -> tuple[Action, ...]:
        """The legal actions of the awaited step (empty when the deal is over)."""
        p = self.public
        awaiting = p.awaiting
        if awaiting is _PLAY:
            card = p.awaiting_card
            if card is not None:
                return (PLAYS[self._holder[card.index]][card.index],)
            seat = p.to_act
            assert seat is not None
            if p.blind:
                return (PLAYS[seat][self._blind_next(seat).index],)
            mask = playable(p._code, self._hands[seat], p._led, p.tricks_played == 0)
            return actions_of(PLAYS_BY_MASK, seat, mask)
        if awaiting is _LAY:
            seat = p.to_act
            assert seat is not None
            mask = self._hands[seat] & p._fit
            return actions_of(LAYS_BY_MASK, seat, mask) if mask else (PASSES[seat],)
        if awaiting is _ANNOUNCE:
            return ANNOUNCES[self._holder[RED_KING.index]]
        return ()

    def _force(self) -> None:
        """Take every step that leaves no choice (see the module docstring)."""
        p, hands, holder = self.public, self._hands, self._holder
        while True:
            awaiting = p.awaiting
            if awaiting is _PLAY:
                card = p.awaiting_card
                if card is not None:
                    seat = holder[card.index]
                elif p.blind:
                    seat = p.to_act  # type: ignore[assignment]
                    card = self._blind_next(seat)
                    self._blind_at[seat] += 1
                else:
                    return
                hands[seat] ^= 1 << card.index
                p._do_play(seat, card)
            elif awaiting is _LAY:
                seat = p.to_act  # type: ignore[assignment]
                if hands[seat] & p._fit:
                    return
                p._do_pass(seat)
            else:
                return

    # -- views and the end --------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (never another seat's hidden card)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise MalformedInput(f"no seat {seat!r} at a table of {self.players}")
        own = self.to_act == seat
        legal = tuple(self.legal_actions()) if own else ()
        hand = () if self.public.blind else cards_of(self._hands[seat])
        return build_view(self.public, seat, hand, own, legal)

    def result(self) -> DealResult:
        """How the deal ended; ``RulesError`` while it is still going on."""
        p = self.public
        if not p.is_over:
            raise RulesError("the deal is not over")
        return DealResult(p.contract, tuple(p.points), tuple(p.out), p.announced)


def first_breach(deal: Deal, events: Iterable[Action]) -> IllegalAction | None:
    """The audit (LORUM.md 7): replay the public ``events`` of a deal against its opened
    hands (``deal`` fresh, made with ``auto=False``); the first event the rules forbid,
    or ``None``. A deal that stops short of its end blames the seat it awaits."""
    if deal._auto:
        raise RulesError("the audit needs a deal made with auto=False")
    for event in events:
        try:
            deal.apply(event)
        except IllegalAction as err:
            return err
    if deal.is_over:
        return None
    seat = deal.to_act
    assert seat is not None
    return IllegalAction(seat, None, "it did not take its step")


def _check_hands(
    dealt: tuple[tuple[Card, ...], ...], players: int, size: int, contract: Contract
) -> None:
    if size not in (full_hand(players), SHORT_HAND) or (
        size == SHORT_HAND and contract is not Contract.FIRST_LAST
    ):
        raise MalformedInput(f"hands of {size} cards are not a deal of {contract}")
    if any(len(h) != size for h in dealt):
        raise MalformedInput("every hand must hold the same number of cards")
    if not all(type(c) is Card for h in dealt for c in h):
        raise MalformedInput("hands must hold Card objects")
    mask = mask_of(c for h in dealt for c in h)
    if mask.bit_count() != size * players:
        raise MalformedInput("a card is dealt twice")
    if players == 3 and mask & SET_ASIDE_MASK:
        raise MalformedInput("7S and 8S are set aside with three players")


def _check_world(public: PublicDeal, hands: tuple[tuple[Card, ...], ...]) -> None:
    """Hands given to ``from_public`` must fit the public deal exactly."""
    check_hand_sizes(public.players, public.hand_sizes, hands)
    if not all(type(c) is Card for h in hands for c in h):
        raise MalformedInput("hands must hold Card objects")
    everything = [c for h in hands for c in h]
    unseen = PACK_MASK & ~public.gone_mask
    held = mask_of(everything)
    if len(everything) != held.bit_count() or held & ~unseen:
        raise MalformedInput("the hands must hold cards still in play, each once")
    # a short First-and-last leaves the stack out of every hand; else all are held
    if public.hand_size < full_hand(public.players):
        return
    if held != unseen:
        raise MalformedInput("the hands must hold every card still in play exactly once")
