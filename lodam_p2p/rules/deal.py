"""One deal with every card known: the public deal with its hidden part filled in.

:class:`Deal` deals the cards into the hidden part of its
:class:`~lodam_p2p.rules.public.PublicDeal` (the hands as bit masks, the talon's top,
the card of the offer on the table) and then drives that one machine with actions. An
action is accepted exactly when the machine's own test of a move
(:meth:`~lodam_p2p.rules.machine.DealMachine.allows`) accepts its code — the test that
agrees with the legal moves the machine generates — and only a refused action pays for
working out *why* (:mod:`lodam_p2p.rules.explain`). The unchecked path of the same
machine is what a search runs (see :mod:`lodam_p2p.rules.machine`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter

from lodam_p2p.rules.actions import Action, Decision, MalformedInput, RulesError, default_for
from lodam_p2p.rules.cards import (
    CARD_KINDS,
    CARDS,
    FULL_MASK,
    SHORT_MASK,
    SHORT_PACK,
    Card,
    Suit,
    cards_of,
)
from lodam_p2p.rules.legal import ACTION_MOVES
from lodam_p2p.rules.options import Options
from lodam_p2p.rules.public import PublicDeal
from lodam_p2p.rules.records import DealResult, ExchangeRecord, TrickRecord
from lodam_p2p.rules.view import PlayerView, build_view


class Deal:
    """A deal in progress with all hidden cards; see the module docstring."""

    __slots__ = ("_dealt", "_since", "_talon", "apply", "public")

    public: PublicDeal  #: the machine: the public part, and the hidden part filled in
    #: Apply ``action``; ``IllegalAction`` naming seat and move if the rules forbid it.
    #: (The machine's own checked ``apply``, bound once: it runs at every decision.)
    apply: Callable[[Action], None]
    _dealt: tuple[tuple[Card, ...], ...]
    _talon: tuple[Card, ...]
    _since: int  #: exchanges resolved before this object took over (``from_public``)

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
        indices = _check_pack(deck, public.pack_size)
        order, size = public.order, public.hand_size
        m = len(order)
        hands: list[tuple[Card, ...]] = [()] * public.players
        masks = [0] * public.players
        for k, seat in enumerate(order):
            hands[seat] = deck[k : m * size : m]
            masks[seat] = sum(map(_BIT.__getitem__, indices[k : m * size : m]))
        self = cls.__new__(cls)
        self._dealt, self._talon, self._since = tuple(hands), deck[m * size :], 0
        public.fill_hidden(masks, indices[m * size], -1)
        self.public, self.apply = public, public.apply
        return self

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
        offered = -1 if pending_offer_card is None else pending_offer_card.index
        return cls._assemble(public.copy(), held, tuple(talon), offered)

    @classmethod
    def _assemble(
        cls,
        public: PublicDeal,
        hands: list[tuple[Card, ...]],
        talon: tuple[Card, ...],
        offer_card: int,
    ) -> Deal:
        self = cls.__new__(cls)
        self._dealt = tuple(hands)
        self._talon = talon
        self._since = public.exchange_count
        top = talon[0].index if talon else -1
        self.public = public.with_hidden([_mask(h) for h in hands], top, offer_card)
        self.apply = self.public.apply
        return self

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search."""
        new = Deal.__new__(Deal)
        new.public = self.public.copy()
        new.apply = new.public.apply
        new._dealt, new._talon, new._since = self._dealt, self._talon, self._since
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
        return cards_of(self.public.hands[seat])

    @property
    def offered_card(self) -> Card | None:
        """The card of the offer on the table, while answers are asked (hidden)."""
        index = self.public.offer_card
        return CARDS[index] if self.public.offer_kind is not None and index >= 0 else None

    @property
    def exchanges(self) -> list[ExchangeRecord]:
        """Resolved offers with the true cards (for a deal made by ``from_public``: those
        since that point)."""
        return self.public.exchange_records(self._since)

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

    @property
    def legal(self) -> tuple[Action, ...]:
        """Every legal action of ``to_act``, in a fixed order (defaults first); empty once
        the deal is over."""
        return self.public.legal_moves(ACTION_MOVES)

    def legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act``, in a fixed order (defaults first)."""
        return list(self.public.legal_moves(ACTION_MOVES))

    def default_action(self) -> Action | None:
        """The default of the awaited decision; ``None`` for a play or when over."""
        p = self.public
        if p.to_act is None or p.awaiting is None:
            return None
        return default_for(p.awaiting, p.to_act)

    # -- views and the end --------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (never another seat's hidden card)."""
        if not 0 <= seat < self.public.players:
            raise MalformedInput(f"no seat {seat} at a table of {self.public.players}")
        own = self.public.to_act == seat
        return build_view(
            self.public,
            seat,
            cards_of(self.public.hands[seat]),
            self.exchanges,
            self.legal if own else (),
        )

    def result(self) -> DealResult:
        """How the deal ended; ``RulesError`` while it is still going on."""
        p = self.public
        if not p.is_over:
            raise RulesError("the deal is not over")
        return DealResult(tuple(p.points), p.out, p.counter_change, p.reason)


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def _check_pack(deck: Sequence[Card], size: int) -> list[int]:
    """``deck`` must be exactly the ``size``-card pack, each card once; its indices."""
    if len(deck) != size:
        raise MalformedInput(f"the deck must hold {size} cards, got {len(deck)}")
    if set(map(type, deck)) != {Card}:
        raise MalformedInput("the deck must hold Card objects")
    indices = list(map(_INDEX, deck))
    distinct = set(indices)
    if len(distinct) != size or not distinct <= (_FULL if size == 52 else _SHORT):
        raise MalformedInput(f"the deck is not the {size}-card pack (a card missing or twice)")
    return indices


_BIT = tuple(1 << i for i in range(52))
_INDEX = attrgetter("index")
_FULL = frozenset(range(52))
_SHORT = frozenset(card.index for card in SHORT_PACK)


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
    unseen = (FULL_MASK if public.pack_size == 52 else SHORT_MASK) & ~public.played
    if len(everything) != bin(unseen).count("1") or _mask(everything) != unseen:
        raise MalformedInput("hands and talon must hold every unplayed card exactly once")
    offer = public.pending_offer
    if offer is None:
        return
    if offer_card is None or offer_card not in hands[offer.offerer]:
        raise MalformedInput("the offered card must be given and be in the offerer's hand")
    if CARD_KINDS[offer_card.index] is not offer.kind:
        raise MalformedInput(f"the offered card must be a {offer.kind.value}")

