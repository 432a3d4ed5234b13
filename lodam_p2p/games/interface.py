"""The game interface: everything a table asks of a card game, and nothing more.

What a game must state
----------------------
A :class:`Game` is one value per game (``lodam``, ``lorum`` …), found by name through the
``lodam_p2p.games`` entry-point group (:mod:`lodam_p2p.games.registry`). It states, once
and for every layer above it:

- its **name**, title, a short rules text, the **seat range** a table may start with, and
  its **options** (parsed from ``k=v`` texts or a JSON mapping, listed as help rows);
- for the next deal of a match, the **pack** (the cards in canonical order: card number
  ``i`` of the fair-deal protocol is ``pack[i]``) and the **deal plan**: which deck
  position goes to which seat, which positions stay in the talon (and which of those the
  deal may turn face up), which cards are set aside face up before the shuffle;
- the **match**: start it, make the next deal from a deck, settle a finished deal, and
  say who stands where (winners, ranks, a score per seat);
- the **deal** itself, stepped by everyone the same way — ``to_act``, ``legal_actions()``,
  ``apply(action)``, ``view(seat)``, ``is_over`` — and its **public part**, the state a
  seat tracks from announced moves alone and checks without seeing a hidden card;
- the **action codec** (:class:`WireAction`): an action as a kind, plain public arguments
  and at most one card, with how that card travels (face up to all, to one seat, face
  down); the session sends the card as a deck position and the rest as it is;
- the **audit replay**: the full deal replayed from the opened deck over the logged
  actions, naming the first action the rules refuse and its seat.

Hidden turn order
-----------------
In Lodam the public part always knows whose turn it is. In Lorum's Quartet it does not:
the next card of the run must be played by whoever holds it, and nobody but the holder
knows who that is. The public part then says ``Holder(card)`` — "the holder of this card
acts" — rather than a seat (:data:`Turn`). Every seat can still check that step: the card
that is then revealed must be that very card, and the seat that reveals it is its holder.
A seat that holds the card and stays silent cannot be caught at once, but is caught at
the audit, when the opened deck shows where the card was. So a public step may name a
card instead of a seat without any seat learning more than the table does.

How session and fair deal use the deal plan
-------------------------------------------
The fair-deal protocol knows no card game: it shuffles ``len(plan.pack)`` encrypted
positions and deals position ``j`` to ``plan.schedule[j]`` (``None`` keeps it in the talon).
Set-aside cards are not shuffled at all; every seat knows them. Talon positions in
``plan.turnable`` may be revealed to all during the deal (Lodam's trump card). The
session reads the plan from the game instead of re-deriving a round-robin of its own,
so a game's schedule is written once, here, by the game.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

#: One plain value of a :class:`WireAction` argument (msgpack and JSON carry it as is).
WireValue: TypeAlias = int | bool | str | None
#: A game's card: a hashable value whose ``str`` is its notation (``"TD"``, ``"OH"``).
Card: TypeAlias = Hashable


class GameError(ValueError):
    """Base of the interface's own errors; one line for people."""


class UnknownGameError(GameError):
    """A game name that no installed game provides."""


class ActionCodecError(GameError):
    """A wire action that is not an action of this game (a peer's bad message)."""


@dataclass(frozen=True, slots=True)
class SeatRange:
    """How many seats a table of the game may start with (both ends included)."""

    low: int
    high: int

    def __contains__(self, seats: object) -> bool:
        return isinstance(seats, int) and not isinstance(seats, bool) and (
            self.low <= seats <= self.high)

    def __str__(self) -> str:
        return f"{self.low} to {self.high}"

    def check(self, seats: int, game: str) -> None:
        """``GameError`` when ``seats`` is outside the range."""
        if seats not in self:
            raise GameError(f"a table of {game} seats {self} players, got {seats}")


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One table option for ``show-options`` and the lobby: name, default, help."""

    name: str
    default: object  #: the JSON value of the default
    help: str


@dataclass(frozen=True, slots=True)
class DealPlan:
    """Where the cards of one deal go (see the module docstring).

    ``pack``: the cards that are shuffled, in canonical order. ``schedule[j]``: the seat
    that deck position ``j`` (top first) is dealt to, ``None`` for the talon. ``talon``:
    the talon positions, top first. ``turnable``: talon positions the deal may turn face
    up for everyone. ``set_aside``: cards put aside face up before the shuffle.
    """

    pack: tuple[Card, ...]
    schedule: tuple[int | None, ...]
    talon: tuple[int, ...] = ()
    turnable: tuple[int, ...] = ()
    set_aside: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if len(self.schedule) != len(self.pack):
            raise GameError("a deal plan needs one schedule entry per card of the pack")
        if self.talon != tuple(j for j, seat in enumerate(self.schedule) if seat is None):
            raise GameError("the talon must be exactly the unscheduled positions, in order")
        if not set(self.turnable) <= set(self.talon):
            raise GameError("only talon positions can be turned")
        if set(self.set_aside) & set(self.pack):
            raise GameError("a set-aside card is not shuffled")

    def positions_of(self, seat: int) -> tuple[int, ...]:
        """The deck positions dealt to ``seat``, in dealing order."""
        return tuple(j for j, s in enumerate(self.schedule) if s == seat)

    def hands(self, deck: Sequence[Card]) -> dict[int, tuple[Card, ...]]:
        """Each seat's cards as dealt from ``deck`` (top first), by seat."""
        out: dict[int, list[Card]] = {}
        for position, seat in enumerate(self.schedule):
            if seat is not None:
                out.setdefault(seat, []).append(deck[position])
        return {seat: tuple(cards) for seat, cards in sorted(out.items())}


@dataclass(frozen=True, slots=True)
class Holder:
    """A public turn that names a card, not a seat: whoever holds ``card`` acts."""

    card: Card

    def __str__(self) -> str:
        return f"the holder of {self.card}"


#: Whose step it is, as the public part knows it: a seat, the holder of a card, or
#: ``None`` when the deal is over.
Turn: TypeAlias = int | Holder | None


class Passage(enum.Enum):
    """How the card of a :class:`WireAction` travels."""

    FACE_UP = "face_up"  #: shown to every seat (a card played or laid, an announcement)
    TO_ONE = "to_one"  #: handed privately to one seat (an exchange answer)
    FACE_DOWN = "face_down"  #: put down unseen, committed to, opened at the audit (an offer)


@dataclass(frozen=True, slots=True)
class WireAction:
    """An action as it travels: ``kind`` (the game's word), public ``args`` and at most
    one ``card`` with its :class:`Passage`. The seat is the sender's, never sent."""

    kind: str
    args: tuple[WireValue, ...] = ()
    card: Card | None = None
    passage: Passage | None = None

    def to_list(self) -> list[object]:
        """``[kind, [args…], card text or None]``: the JSON/msgpack form."""
        return [self.kind, list(self.args), None if self.card is None else str(self.card)]

    def seen_by_all(self) -> WireAction:
        """This action as the other seats see it: its card only if it travels face up
        (``passage`` still says that a card travelled)."""
        if self.card is None or self.passage is Passage.FACE_UP:
            return self
        return WireAction(self.kind, self.args, None, self.passage)


@dataclass(frozen=True, slots=True)
class PublicMove:
    """One step of a deal as every seat sees it (the public part is advanced by these).

    ``wire``: the action's :meth:`WireAction.seen_by_all` form. ``turned``: a talon card
    turned face up by this step (Lodam's trump at the first renounce). ``outcome``: public
    facts announced with it (Lodam: whether an accepted exchange was void).
    """

    seat: int
    wire: WireAction
    turned: Card | None = None
    outcome: tuple[WireValue, ...] = ()


@dataclass(frozen=True, slots=True)
class DealSummary:
    """How a deal ended, in terms every layer understands.

    ``penalty`` and ``gain`` are per seat and never negative: counters lost and gained in
    Lodam; points (or beans) paid and received in Lorum. ``reason`` is one sentence.
    """

    points: tuple[int, ...]
    penalty: tuple[int, ...]
    gain: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class Standings:
    """Who stands where in a match (final once the match is over).

    ``order``: seats best first. ``ranks``: per seat, 1 = best, tied seats share the mean
    of their places. ``scores``: per seat, the game's running figure (Lodam counters held,
    Lorum penalty points), named by ``score_name``.
    """

    winners: tuple[int, ...]
    order: tuple[int, ...]
    ranks: tuple[float, ...]
    scores: tuple[int, ...]
    score_name: str


@dataclass(frozen=True, slots=True)
class ReplayError:
    """The first logged action the rules refused: its index, its seat and why.
    ``offence`` is the game's word for it (``"revoke"``, ``"illegal-action"`` …)."""

    index: int
    seat: int
    offence: str
    message: str


@dataclass(frozen=True, slots=True)
class Replayed:
    """An audit replay: the deal as far as it went, actions applied, the first refusal."""

    deal: GameDeal
    applied: int
    error: ReplayError | None


def shared_ranks(keys: Sequence[tuple[float, ...]]) -> tuple[float, ...]:
    """Rank per seat (1 = best) from keys where bigger is better; ties share places."""
    order = sorted(range(len(keys)), key=lambda seat: keys[seat], reverse=True)
    ranks = [0.0] * len(keys)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[place]]:
            end += 1
        for position in range(place, end + 1):
            ranks[order[position]] = (place + end + 2) / 2
        place = end + 1
    return tuple(ranks)


class SeatView(Protocol):
    """What every layer may read of a seat's view; a game's view holds much more."""

    @property
    def seat(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def legal(self) -> Sequence[Any]: ...


class GameDeal(Protocol):
    """One deal with every card known, stepped the same way in every game."""

    @property
    def to_act(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    def legal_actions(self) -> list[Any]: ...
    def apply(self, action: Any) -> None: ...
    def view(self, seat: int) -> Any: ...
    def default_action(self) -> Any: ...


class GameMatch(Protocol):
    """A match in progress, as every layer may read it."""

    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def deals_played(self) -> int: ...
    @property
    def is_over(self) -> bool: ...


class Game(abc.ABC):
    """One game behind the interface (see the module docstring); subclass and state it.

    Matches, deals, views, actions, options and cards are the game's own values; the
    methods below are all a table, an arena, a bot host or a client shell may call.
    """

    #: Name on the command line and in entry points (``lodam``).
    name: str
    #: Name for people (``Losing Lodam``).
    title: str
    #: Seats a table may start with.
    seats: SeatRange
    #: The exception the engine raises for a refused action (has ``seat`` and ``reason``).
    illegal_action: type[Exception]

    def __repr__(self) -> str:
        return f"<Game {self.name!r}: {self.title}>"

    # -- options ------------------------------------------------------------------------

    @abc.abstractmethod
    def default_options(self) -> Any:
        """The options of a table that names none."""

    @abc.abstractmethod
    def parse_options(self, assignments: Iterable[str]) -> Any:
        """Options from ``["k=v", …]`` texts; ``ValueError`` naming the bad one."""

    @abc.abstractmethod
    def options_from_mapping(self, values: Mapping[str, object]) -> Any:
        """Options from a JSON object; ``ValueError`` naming the bad one."""

    @abc.abstractmethod
    def options_to_mapping(self, options: Any) -> dict[str, object]:
        """The JSON form of ``options`` (``options_from_mapping`` reads it back)."""

    @abc.abstractmethod
    def option_rows(self) -> tuple[OptionRow, ...]:
        """Every option with its default and a line of help."""

    # -- cards --------------------------------------------------------------------------

    @abc.abstractmethod
    def parse_card(self, text: str) -> Card:
        """The card written ``text``; ``ValueError`` if it is not one of this game."""

    # -- the match ----------------------------------------------------------------------

    @abc.abstractmethod
    def start_match(self, options: Any, players: int, first_dealer: int) -> GameMatch:
        """A new match; ``ValueError`` for a seat count outside :attr:`seats`."""

    @abc.abstractmethod
    def deal_plan(self, match: GameMatch) -> DealPlan:
        """The pack and where its cards go, for the match's next deal."""

    def pack(self, match: GameMatch) -> tuple[Card, ...]:
        """The cards shuffled for the match's next deal, in canonical order."""
        return self.deal_plan(match).pack

    @abc.abstractmethod
    def dealt_in(self, match: GameMatch) -> tuple[bool, ...]:
        """Per seat, whether it receives cards in the match's next deal."""

    @abc.abstractmethod
    def new_deal(self, match: GameMatch, deck: Sequence[Card]) -> GameDeal:
        """The match's next deal from ``deck`` (the shuffled pack, top first)."""

    @abc.abstractmethod
    def finish_deal(self, match: GameMatch, deal: GameDeal) -> DealSummary:
        """Settle a finished deal into the match (scores, the next dealer, the end)."""

    @abc.abstractmethod
    def standings(self, match: GameMatch) -> Standings:
        """Winners, order, ranks and scores, as they stand."""

    @abc.abstractmethod
    def payouts(self, match: GameMatch) -> tuple[int, ...]:
        """Per seat, stakes won (+) or lost (−) once the match is over (all 0 without)."""

    # -- the deal -----------------------------------------------------------------------

    @abc.abstractmethod
    def public_part(self, deal: GameDeal) -> Any:
        """The public state of ``deal``: what every seat tracks and checks."""

    @abc.abstractmethod
    def turn(self, public: Any) -> Turn:
        """Whose step it is as the public state knows it (a seat or a :class:`Holder`)."""

    @abc.abstractmethod
    def public_start(self, match: GameMatch) -> Any:
        """The public state of the match's next deal before its first step (no deck)."""

    @abc.abstractmethod
    def public_apply(self, public: Any, move: PublicMove) -> None:
        """Advance ``public`` by ``move``, checking all that public knowledge can check
        (turn, a card already played …); :attr:`illegal_action` when it is refused."""

    @abc.abstractmethod
    def step(self, deal: GameDeal, action: Any) -> PublicMove:
        """Apply ``action`` to the full ``deal`` and return it as every seat saw it."""

    @abc.abstractmethod
    def hidden_cards(self, deal: GameDeal, seat: int) -> frozenset[Card]:
        """The cards ``seat`` may not know now: never part of its view."""

    # -- actions ------------------------------------------------------------------------

    @abc.abstractmethod
    def encode_action(self, action: Any) -> WireAction:
        """``action`` as it travels (see :class:`WireAction`)."""

    @abc.abstractmethod
    def decode_action(self, seat: int, wire: WireAction) -> Any:
        """The action of ``seat`` that ``wire`` carries; ``ActionCodecError`` if none."""

    def action_from_list(self, seat: int, raw: object) -> Any:
        """:meth:`decode_action` of the ``[kind, [args…], card]`` form, checked."""
        if not isinstance(raw, list | tuple) or len(raw) != 3:
            raise ActionCodecError(f"an action is [kind, [args], card], got {raw!r}")
        kind, args, card_text = raw
        if not isinstance(kind, str) or not isinstance(args, list | tuple):
            raise ActionCodecError(f"an action is [kind, [args], card], got {raw!r}")
        if not all(a is None or isinstance(a, int | str) for a in args):
            raise ActionCodecError(f"action arguments must be plain values, got {args!r}")
        card = None
        if card_text is not None:
            if not isinstance(card_text, str):
                raise ActionCodecError(f"a card is written as text, got {card_text!r}")
            try:
                card = self.parse_card(card_text)
            except ValueError as err:
                raise ActionCodecError(str(err)) from None
        return self.decode_action(seat, WireAction(kind, tuple(args), card))

    @abc.abstractmethod
    def public_action(self, action: Any) -> Any:
        """What the other seats may see of ``action``; ``None`` if it hides a card."""

    def refusal_reason(self, error: Exception) -> str:
        """The reason an :attr:`illegal_action` error gives, for people."""
        return str(getattr(error, "reason", error))

    # -- the audit ----------------------------------------------------------------------

    @abc.abstractmethod
    def replay(self, match: GameMatch, deck: Sequence[Card],
               actions: Iterable[Any]) -> Replayed:
        """Replay the match's next deal from the opened ``deck`` over logged ``actions``;
        stops at the first refused action. ``match`` is left unchanged."""

    # -- the client shell ---------------------------------------------------------------

    @abc.abstractmethod
    def describe(self, view: Any) -> str:
        """One line about the current deal for a status bar (contract, trump …)."""

    @abc.abstractmethod
    def rules_text(self) -> str:
        """A few lines of rules for a help screen, naming the full rules file."""
