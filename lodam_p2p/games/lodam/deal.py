"""One deal with every card known: the deal machine with its hidden part dealt in.

:class:`Deal` is the :class:`~lodam_p2p.games.lodam.machine.DealMachine` holding the hands (as
bit masks), the talon's top and the card of the offer on the table, spelling its legal
moves as interned actions. It takes a seat's actions through the machine's checked
``apply`` — the test that agrees with the legal moves the machine generates — and only a
refused action pays for working out *why* (:mod:`lodam_p2p.games.lodam.explain`). The
unchecked path of the same machine is what a search runs.

:attr:`Deal.public` is the same deal seen as a :class:`~lodam_p2p.games.lodam.PublicDeal`: a
live window onto this machine, not a second one kept in step.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from lodam_p2p.games.kit.rules import check_hand_sizes
from lodam_p2p.games.lodam.actions import Action, MalformedInput, RulesError, default_for
from lodam_p2p.games.lodam.cards import (
    CARD_KINDS,
    CARDS,
    FULL_MASK,
    SHORT_MASK,
    Card,
    cards_of,
)
from lodam_p2p.games.lodam.legal import ACTION_MOVES, CODE_MOVES
from lodam_p2p.games.lodam.machine import DealMachine
from lodam_p2p.games.lodam.options import Options
from lodam_p2p.games.lodam.public import DealRecord, PublicDeal
from lodam_p2p.games.lodam.records import DealResult, ExchangeRecord
from lodam_p2p.games.lodam.seating import seating
from lodam_p2p.games.lodam.view import PlayerView, build_view


class Deal(DealRecord[Action]):
    """A deal in progress with all hidden cards; see the module docstring."""

    __slots__ = ("_dealt", "_public", "_records", "_since", "_talon")

    _dealt: tuple[tuple[Card, ...], ...]
    _talon: tuple[Card, ...]
    _since: int  #: exchanges resolved before this object took over (``from_public``)
    _public: PublicDeal | None  #: the live public window, once asked for
    _records: list[ExchangeRecord]  #: the exchange records built so far

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
        table = seating(options, dealer, lives, match_active, watchers)
        self = cls.__new__(cls)
        self._setup(options, dealer, table, ACTION_MOVES)
        deck = tuple(deck)
        bits = _check_pack(deck, self.pack_size)
        order, dealt = self.order, self.m * self.hand_size
        m = len(order)
        hands: list[tuple[Card, ...]] = [()] * self.players
        masks = [0] * self.players
        for k, seat in enumerate(order):
            hands[seat] = deck[k:dealt:m]
            masks[seat] = sum(bits[k:dealt:m])  # distinct powers of two: the hand's mask
        self._dealt, self._talon = tuple(hands), deck[dealt:]
        self._since, self._public, self._records = 0, None, []
        self.fill_hidden(masks, deck[dealt].index, -1)
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
        self = public.copy_as(cls, ACTION_MOVES)
        self._dealt = tuple(tuple(h) for h in hands)
        self._talon = tuple(talon)
        self._since, self._public, self._records = public.exchange_count, None, []
        offered = -1 if pending_offer_card is None else pending_offer_card.index
        top = self._talon[0].index if self._talon else -1
        self.fill_hidden([_mask(h) for h in hands], top, offered)
        return self

    def copy(self) -> Deal:
        """An independent copy, cheap enough for search."""
        new = self.copy_as(Deal, self.alphabet)
        new._dealt, new._talon, new._since = self._dealt, self._talon, self._since
        new._public, new._records = None, self._records[:]
        return new

    @property
    def public(self) -> PublicDeal:
        """This deal as everyone sees it: a live :class:`PublicDeal` window onto it
        (reads follow the deal; its ``copy()`` is an independent public deal)."""
        found = self._public
        if found is None:
            found = self._public = _LivePublic.over(self)
        return found

    # -- the record -------------------------------------------------------------------

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
        return cards_of(self.hands[seat])

    @property
    def offered_card(self) -> Card | None:
        """The card of the offer on the table, while answers are asked (hidden)."""
        index = self.offer_card
        return CARDS[index] if self.offer_kind is not None and index >= 0 else None

    @property
    def exchanges(self) -> list[ExchangeRecord]:
        """Resolved offers with the true cards (for a deal made by ``from_public``: those
        since that point)."""
        built = self._records
        missing = self.exchange_count - self._since - len(built)
        if missing:
            built.extend(self.exchange_records(self.exchange_count - missing))
        return built

    # -- decisions --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of ``to_act``, in a fixed order (defaults first)."""
        return list(self.legal)

    def default_action(self) -> Action | None:
        """The default of the awaited decision; ``None`` for a play or when over."""
        if self.to_act is None or self.awaiting is None:
            return None
        return default_for(self.awaiting, self.to_act)

    # -- views and the end --------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (never another seat's hidden card)."""
        if not 0 <= seat < self.players:
            raise MalformedInput(f"no seat {seat} at a table of {self.players}")
        own = self.to_act == seat
        return build_view(
            self, seat, cards_of(self.hands[seat]), self.exchanges, self.legal if own else ()
        )

    def result(self) -> DealResult:
        """How the deal ended; ``RulesError`` while it is still going on."""
        if not self.is_over:
            raise RulesError("the deal is not over")
        return DealResult(tuple(self.points), self.out, self.counter_change, self.reason)


class _LivePublic(PublicDeal):
    """A full deal seen as a :class:`PublicDeal`: every field of the machine is read and
    written through to the deal, so it never falls out of step with it."""

    __slots__ = ("_deal",)

    _deal: Deal

    @classmethod
    def over(cls, deal: Deal) -> _LivePublic:
        """The window onto ``deal``."""
        self = object.__new__(cls)
        self._deal = deal
        return self

    def copy(self) -> PublicDeal:  # type: ignore[override]
        """An independent public deal at this point (the hidden part comes along)."""
        return self._deal.copy_as(PublicDeal, CODE_MOVES)


def _through(name: str) -> property:
    def write(window: _LivePublic, value: object) -> None:
        setattr(window._deal, name, value)

    return property(attrgetter(f"_deal.{name}"), write)


for _name in DealMachine.__slots__:
    setattr(_LivePublic, _name, _through(_name))


def _mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def _check_pack(deck: Sequence[Card], size: int) -> list[int]:
    """``deck`` must be exactly the ``size``-card pack, each card once; its cards' bits.

    The test is one sum: ``size`` powers of two add up to a number with ``size`` bits
    set only if no two are equal (a carry would merge them), so the sum of the cards'
    bits is the pack's mask exactly when every card of the pack is there once."""
    if len(deck) != size:
        raise MalformedInput(f"the deck must hold {size} cards, got {len(deck)}")
    bits = [card.bit for card in deck if type(card) is Card]
    if len(bits) != size:
        raise MalformedInput("the deck must hold Card objects")
    if sum(bits) != (FULL_MASK if size == 52 else SHORT_MASK):
        raise MalformedInput(f"the deck is not the {size}-card pack (a card missing or twice)")
    return bits



def _check_determinization(
    public: PublicDeal,
    hands: Sequence[Sequence[Card]],
    talon: Sequence[Card],
    offer_card: Card | None,
) -> None:
    """Given hands and talon must fit the public deal exactly (see ``from_public``)."""
    check_hand_sizes(public.players, public.hand_sizes, hands)
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

