"""One deal with every card known: the public deal plus the hidden part.

:class:`Deal` keeps the hands (as bit masks), the talon and the true cards of each
exchange, checks every action against them (following suit, holding the card, the kind
of an offer), and then drives the :class:`~lodam_p2p.rules.public.PublicDeal` it wraps,
which alone decides whose turn comes next. Legal moves are generated first and an action
is accepted exactly when it is among them; only a refused action pays for working out
*why* (:mod:`lodam_p2p.rules.explain`).
"""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.rules import legal
from lodam_p2p.rules.actions import (
    Action,
    Answer,
    Decision,
    Declare,
    MalformedInput,
    Offer,
    Play,
    RulesError,
    Swallow,
    default_for,
)
from lodam_p2p.rules.cards import (
    CARD_KINDS,
    CARD_SUIT,
    FULL_MASK,
    SHORT_MASK,
    Card,
    Suit,
    cards_of,
)
from lodam_p2p.rules.explain import why_illegal
from lodam_p2p.rules.options import Options
from lodam_p2p.rules.public import PublicDeal
from lodam_p2p.rules.records import DealResult, ExchangeRecord, TrickRecord
from lodam_p2p.rules.view import PlayerView, build_view


class Deal:
    """A deal in progress with all hidden cards; see the module docstring."""

    __slots__ = (
        "_dealt", "_exchange_log", "_exchanges", "_hands", "_legal", "_offer_card", "_talon",
        "public",
    )

    public: PublicDeal  #: the public part, advanced in step
    _exchange_log: list[tuple[int, Card, int | None, Card | None, bool]]
    _exchanges: list[ExchangeRecord]
    _dealt: tuple[tuple[Card, ...], ...]
    _hands: list[int]  #: current hands as card-index bit masks
    _talon: tuple[Card, ...]
    _offer_card: Card | None  #: the card of the offer on the table
    _legal: tuple[Action, ...] | None  #: legal actions now, once generated

    # -- construction -----------------------------------------------------------------

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
    ) -> Deal:
        """Deal ``deck`` (the whole pack, top first) to the active seats (RULES.md 4).

        ``MalformedInput`` if the deck is not exactly the pack this deal needs."""
        public = PublicDeal.start(options, dealer, lives, match_active, watchers)
        deck = tuple(deck)
        _check_pack(deck, public.pack_size)
        order, size = public.order, public.hand_size
        m = len(order)
        hands: list[tuple[Card, ...]] = [()] * public.players
        for k, seat in enumerate(order):
            hands[seat] = deck[k : m * size : m]
        return cls._assemble(public, hands, deck[m * size :], None)

    @classmethod
    def from_public(
        cls,
        public: PublicDeal,
        hands: Sequence[Sequence[Card]],
        talon: Sequence[Card],
        pending_offer_card: Card | None = None,
    ) -> Deal:
        """A full deal at ``public``'s current point, from given *current* hands and talon
        (a search samples them from a view). Checked for consistency with ``public``:
        hand sizes, talon size and top, no card twice, nothing already played, the
        offered card during answers. The given hands count as "dealt" for this object."""
        _check_determinization(public, hands, talon, pending_offer_card)
        held = [tuple(h) for h in hands]
        return cls._assemble(public.copy(), held, tuple(talon), pending_offer_card)

    @classmethod
    def _assemble(
        cls,
        public: PublicDeal,
        hands: list[tuple[Card, ...]],
        talon: tuple[Card, ...],
        offer_card: Card | None,
    ) -> Deal:
        self = cls.__new__(cls)
        self.public = public
        self._dealt = tuple(hands)
        self._hands = [_mask(h) for h in hands]
        self._talon = talon
        self._offer_card = offer_card
        self._exchange_log, self._exchanges = [], []
        self._legal = None
        return self

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search."""
        new = Deal.__new__(Deal)
        new.public = self.public.copy()
        new._dealt, new._talon = self._dealt, self._talon
        new._hands = self._hands[:]
        new._offer_card = self._offer_card
        new._exchange_log, new._exchanges = self._exchange_log[:], self._exchanges[:]
        new._legal = self._legal
        return new

    # -- the record -------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Seats at the table (dealt in or not)."""
        return self.public.players

    @property
    def dealer(self) -> int:
        """The dealer of this deal."""
        return self.public.dealer

    @property
    def options(self) -> Options:
        """The table options."""
        return self.public.options

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is awaited; ``None`` when the deal is over."""
        return self.public.to_act

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
        """Each seat's cards as dealt (empty for seats not dealt in)."""
        return self._dealt

    @property
    def talon(self) -> tuple[Card, ...]:
        """The talon, top first (the turned trump card stays its top)."""
        return self._talon

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s current hand, in card-index order."""
        return cards_of(self._hands[seat])

    @property
    def exchanges(self) -> list[ExchangeRecord]:
        """Resolved offers with the true cards (for a deal made by ``from_public``: those
        since that point)."""
        built, log = self._exchanges, self._exchange_log
        if len(built) < len(log):
            built.extend(ExchangeRecord(*row) for row in log[len(built) :])
        return built

    @property
    def tricks(self) -> list[TrickRecord]:
        """Completed tricks."""
        return self.public.tricks

    @property
    def trump(self) -> Suit | None:
        """The trump suit, once turned."""
        return self.public.trump

    @property
    def trump_card(self) -> Card | None:
        """The turned talon card, once turned."""
        return self.public.trump_card

    @property
    def points(self) -> list[int]:
        """Points taken so far, per seat."""
        return self.public.points

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress, ``(seat, card)`` in play order."""
        return self.public.current_trick

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self.public.leader

    # -- decisions --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act``, in a fixed order (defaults first)."""
        found = self._legal
        if found is None:
            found = self._legal = _generate(self)
        return list(found)

    def _legal_now(self) -> tuple[Action, ...]:
        found = self._legal
        if found is None:
            found = self._legal = _generate(self)
        return found

    def default_action(self) -> Action | None:
        """The default of the awaited decision; ``None`` for a play or when over."""
        p = self.public
        if p.to_act is None or p.awaiting is None:
            return None
        return default_for(p.awaiting, p.to_act)

    def apply(self, action: Action) -> None:
        """Apply ``action``; ``IllegalAction`` naming seat and move if the rules forbid it."""
        found = self._legal
        if found is None:
            found = _generate(self)
        # Interned actions (what ``legal_actions`` hands out) match by identity; the
        # scan avoids the dataclass ``__eq__``, which is slow. Hand-built actions
        # fall back to comparing by value.
        for candidate in found:
            if candidate is action:
                break
        else:
            if action not in found:
                raise why_illegal(self.public, self._hands, action)
        self._legal = None
        public = self.public
        # by frequency: answers, plays, offers (one isinstance each, no table look-up)
        if isinstance(action, Answer):
            if action.card is None:
                self._apply_decline(action.seat)
            else:
                self._apply_answer(action)
        elif isinstance(action, Play):
            card = action.card
            self._hands[action.seat] ^= 1 << card.index
            public._do_play(action.seat, card, self._talon[0])
        elif isinstance(action, Offer):
            offered = self._offer_card = action.card
            public._do_offer(action.seat, None if offered is None else CARD_KINDS[offered.index])
        elif isinstance(action, Swallow):
            public._do_swallow(action.seat, action.take)
        elif isinstance(action, Declare):
            public._do_declare(action.seat, action.out, action.challenge)
        else:
            public._do_challenge(action.seat, action.target)

    def _apply_decline(self, seat: int) -> None:
        public = self.public
        offerer = public._offerer
        public._do_answer(seat, False, False)
        if public._offer_kind is None:
            offered = self._offer_card
            assert offered is not None
            self._exchange_log.append((offerer, offered, None, None, False))
            self._offer_card = None

    def _apply_answer(self, action: Answer) -> None:
        card = action.card
        if card is None:
            self._apply_decline(action.seat)
            return
        public, offered = self.public, self._offer_card
        offerer = public._offerer
        assert offered is not None
        void = CARD_SUIT[card.index] == CARD_SUIT[offered.index]
        if not void:
            swap = (1 << card.index) | (1 << offered.index)
            self._hands[offerer] ^= swap
            self._hands[action.seat] ^= swap
        self._exchange_log.append((offerer, offered, action.seat, card, void))
        self._offer_card = None
        public._do_answer(action.seat, True, void)

    # -- views and the end --------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (never another seat's hidden card)."""
        if not 0 <= seat < self.public.players:
            raise MalformedInput(f"no seat {seat} at a table of {self.public.players}")
        own = self.public.to_act == seat
        return build_view(
            self.public,
            seat,
            cards_of(self._hands[seat]),
            self.exchanges,
            tuple(self._legal_now()) if own else (),
        )

    def result(self) -> DealResult:
        """How the deal ended; ``RulesError`` while it is still going on."""
        p = self.public
        if not p.is_over:
            raise RulesError("the deal is not over")
        return DealResult(tuple(p.points), p.out, p.counter_change, p.reason)


def _generate(deal: Deal) -> tuple[Action, ...]:
    """The legal actions of the awaited decision (empty when the deal is over)."""
    p = deal.public
    seat, decision = p.to_act, p.awaiting
    if seat is None:
        return ()
    hand = deal._hands[seat]
    if decision is _ANSWER:
        return legal.answers_masked(seat, hand, p._offer_mask)
    if decision is _PLAY:
        return legal.plays(seat, hand, p._led)
    if decision is _OFFER:
        return legal.offers(seat, hand)
    if decision is _SWALLOW:
        return legal.swallows(seat)
    if decision is _DECLARE:
        targets = p.challenge_targets(seat)
        return legal.declarations(seat, p.points[seat], p.options.out_at, targets)
    return legal.challenges(seat, p.challenge_targets(seat))


_ANSWER, _PLAY, _OFFER = Decision.ANSWER, Decision.PLAY, Decision.OFFER
_SWALLOW, _DECLARE = Decision.SWALLOW, Decision.DECLARE


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def _check_pack(deck: Sequence[Card], size: int) -> None:
    """``deck`` must be exactly the ``size``-card pack, each card once."""
    if len(deck) != size:
        raise MalformedInput(f"the deck must hold {size} cards, got {len(deck)}")
    if not all(type(card) is Card for card in deck):
        raise MalformedInput("the deck must hold Card objects")
    mask = _mask(deck)
    if mask != (FULL_MASK if size == 52 else SHORT_MASK):
        raise MalformedInput(f"the deck is not the {size}-card pack (a card missing or twice)")


def _check_determinization(
    public: PublicDeal,
    hands: Sequence[Sequence[Card]],
    talon: Sequence[Card],
    offer_card: Card | None,
) -> None:
    """Given hands and talon must fit the public deal exactly (see ``from_public``)."""
    if len(hands) != public.players:
        raise MalformedInput(f"need one hand per seat ({public.players}), got {len(hands)}")
    for seat, hand in enumerate(hands):
        if len(hand) != public.hand_sizes[seat]:
            held = public.hand_sizes[seat]
            raise MalformedInput(f"seat {seat} holds {held} cards, given {len(hand)}")
    if len(talon) != public.talon_size:
        raise MalformedInput(f"the talon holds {public.talon_size} cards, given {len(talon)}")
    if public.trump_card is not None and (not talon or talon[0] != public.trump_card):
        raise MalformedInput(f"the talon top must be the turned {public.trump_card}")
    everything = [c for h in hands for c in h] + list(talon)
    unseen = (FULL_MASK if public.pack_size == 52 else SHORT_MASK) & ~public.played_mask
    if len(everything) != bin(unseen).count("1") or _mask(everything) != unseen:
        raise MalformedInput("hands and talon must hold every unplayed card exactly once")
    offer = public.pending_offer
    if offer is None:
        return
    if offer_card is None or offer_card not in hands[offer.offerer]:
        raise MalformedInput("the offered card must be given and be in the offerer's hand")
    if CARD_KINDS[offer_card.index] is not offer.kind:
        raise MalformedInput(f"the offered card must be a {offer.kind.value}")

