"""The typed state API: a game makes states, a state is stepped by integer actions.

In the spirit of OpenSpiel's ``State``: a :class:`StateGame` makes a
:class:`GameState`, and a state answers whose step it is (:meth:`~GameState.current_player`,
:data:`CHANCE` while cards are being dealt, :data:`TERMINAL` at the end), its legal
actions as small integers, ``apply(action)``, ``is_terminal()``, ``returns()`` (one
number per seat, general-sum) and ``observation(seat)``: the game's own ``PlayerView``,
all that seat may know. The deal is a chance event made explicit, one card at a time:
while :meth:`~GameState.is_chance`, :meth:`~GameState.chance_outcomes` lists the cards
of the pack not yet dealt (by their index in the pack) with equal probabilities, and
``apply`` of one puts it at the next deck position.

One implementation serves every game of the interface (:class:`DealState`): a game
states only its :class:`DealCodes` — how its actions are numbered and how the kit makes
its deals — and the rest (match, deal plan, scoring) is asked of its
:class:`~lodam_p2p.games.interface.Game` (as :class:`Rules`). A state is one deal (the
default) or a whole match (``match=True``): then the deals follow each other, each
after its own chance events, and the returns add up.

Everything here is pure: the chance outcomes are chosen by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, Protocol, Self, TypeVar

from lodam_p2p.games.kit.deals import GameDeal, GameMatch
from lodam_p2p.games.kit.values import DealPlan, DealSummary, WireAction

#: :meth:`GameState.current_player` while the deal is being dealt (OpenSpiel's value).
CHANCE = -1
#: :meth:`GameState.current_player` once the state is terminal (OpenSpiel's value).
TERMINAL = -4

ViewT_co = TypeVar("ViewT_co", covariant=True)
DealT = TypeVar("DealT")
ActionT = TypeVar("ActionT")
ViewT = TypeVar("ViewT")


class GameState(Protocol[ViewT_co]):
    """One state of a game, stepped by integer actions (see the module docstring)."""

    @property
    def players(self) -> int: ...
    def current_player(self) -> int: ...
    def is_chance(self) -> bool: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def legal_actions(self) -> Sequence[int]: ...
    def apply(self, action: int) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> tuple[float, ...]: ...
    def observation(self, seat: int) -> ViewT_co | None: ...
    def clone(self) -> Self: ...


class StateGame(Protocol[ViewT_co]):
    """A game that makes states: its size as the state API numbers it."""

    @property
    def name(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def max_chance_outcomes(self) -> int: ...
    def new_initial_state(self) -> GameState[ViewT_co]: ...


class DealCodes(Protocol[DealT, ActionT, ViewT_co]):
    """What a game states for the state API: its actions as integers ``0 … size-1``,
    how a deal of its match is made for the kit (forced steps taken by the deal) and a
    seat's view of it."""

    #: How many action numbers there are.
    size: int

    def legal_codes(self, deal: DealT) -> Sequence[int]:
        """The legal actions of ``deal``'s seat to act, as numbers, ascending."""
        ...

    def apply_code(self, deal: DealT, code: int) -> None:
        """Apply the action numbered ``code`` of the seat to act (checked by the rules)."""
        ...

    def action(self, seat: int, code: int) -> ActionT:
        """The game's action of ``seat`` numbered ``code``."""
        ...

    def code(self, action: ActionT) -> int:
        """The number of ``action``."""
        ...

    def new_deal(self, match: GameMatch, deck: Sequence[object] | None) -> DealT:
        """The match's next deal from ``deck`` (``None``: the deck carries over)."""
        ...

    def view(self, deal: DealT, seat: int) -> ViewT_co:
        """All that ``seat`` may know of ``deal`` (the game's ``PlayerView``)."""
        ...


class Rules(Protocol):
    """What the state API asks of a game: the game interface's
    :class:`~lodam_p2p.games.interface.Game` answers it."""

    name: str

    def start_match(self, options: object, players: int, first_dealer: int) -> GameMatch:
        """A new match."""
        ...

    def deal_plan(self, match: GameMatch) -> DealPlan:
        """The pack and where its cards go, for the match's next deal."""
        ...

    def finish_deal(self, match: GameMatch, deal: GameDeal) -> DealSummary:
        """Settle a finished deal into the match."""
        ...

    def face_down(self, match: GameMatch) -> bool:
        """Whether the match's next deal is dealt face down to its owners too."""
        ...

    def public_action(self, action: object) -> object:
        """What the other seats may see of ``action``; ``None`` if it hides a card."""
        ...

    def encode_action(self, action: object) -> WireAction:
        """``action`` as it crosses the wire: its card, and how the card travels."""
        ...


@dataclass(frozen=True, slots=True)
class Setup:
    """What a :class:`DealState` starts from: seats, options, first dealer, one deal or
    a whole match."""

    players: int
    options: object
    first_dealer: int = 0
    match: bool = False


@dataclass(slots=True)
class DealState(Generic[DealT, ActionT, ViewT]):
    """A state of any game of the interface (see the module docstring).

    ``history``: every action applied, chance outcomes included, so that two states
    with the same history are the same state (:meth:`clone` replays it)."""

    game: Rules
    codes: DealCodes[DealT, ActionT, ViewT]
    setup: Setup
    match: GameMatch = field(init=False)
    deal: DealT | None = field(init=False, default=None)
    pack: tuple[object, ...] = field(init=False, default=())
    drawn: list[int] = field(init=False, default_factory=list)
    left: list[int] = field(init=False, default_factory=list)
    totals: list[float] = field(init=False, default_factory=list)
    history: list[int] = field(init=False, default_factory=list)
    deals: int = field(init=False, default=0)
    _over: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        s = self.setup
        self.match = self.game.start_match(s.options, s.players, s.first_dealer)
        self.totals = [0.0] * s.players
        self._next_deal()

    # -- the state API --------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.setup.players

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` while dealing, :data:`TERMINAL` at the end."""
        if self._over:
            return TERMINAL
        deal = self.deal
        if deal is None:
            return CHANCE
        seat: int | None = _deal(deal).to_act
        return TERMINAL if seat is None else seat

    def is_chance(self) -> bool:
        """Whether the next step is a card dealt."""
        return self.deal is None and not self._over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet (their indices in the pack), equally likely."""
        if not self.is_chance():
            return []
        chance = 1.0 / len(self.left)
        return [(index, chance) for index in self.left]

    def legal_actions(self) -> Sequence[int]:
        """The legal actions now, ascending: chance outcomes while dealing."""
        if self.deal is None:
            return [] if self._over else list(self.left)
        return self.codes.legal_codes(self.deal)

    def apply(self, action: int) -> None:
        """Deal the card ``action`` (pack index), or take the seat to act's action."""
        if self._over:
            raise ValueError("the state is terminal")
        if self.deal is None:
            self._draw(action)
        else:
            self.codes.apply_code(self.deal, action)
            if _deal(self.deal).is_over:
                self._settle()
        self.history.append(action)

    def is_terminal(self) -> bool:
        """Whether the deal (or the match) is over."""
        return self._over

    def returns(self) -> tuple[float, ...]:
        """Per seat, counters (Lodam) or beans and points (Lorum) won, less those lost,
        over the deals settled so far."""
        return tuple(self.totals)

    def observation(self, seat: int) -> ViewT | None:
        """``seat``'s view of the deal (the game's ``PlayerView``); ``None`` before the
        first deal is dealt."""
        return None if self.deal is None else self.codes.view(self.deal, seat)

    def clone(self) -> Self:
        """An independent copy (replayed from the history: the engines are exact)."""
        twin = type(self)(self.game, self.codes, self.setup)
        for action in self.history:
            twin.apply(action)
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self.clone()

    def __repr__(self) -> str:
        return (f"<{self.game.name} state: {self.players} seats, {len(self.history)} steps, "
                f"{self.deals} deals settled, player {self.current_player()}>")

    # -- what a bridge reads too ------------------------------------------------------------

    def action_of(self, code: int) -> ActionT:
        """The game's action of the seat to act numbered ``code``."""
        return self.codes.action(self.current_player(), code)

    # -- inside ---------------------------------------------------------------------------

    def _next_deal(self) -> None:
        plan = self.game.deal_plan(self.match)
        self.pack, self.drawn = plan.pack, []
        self.left = [] if not plan.fresh else list(range(len(plan.pack)))
        if not plan.fresh:
            self.deal = self.codes.new_deal(self.match, None)
        else:
            self.deal = None

    def _draw(self, index: int) -> None:
        if index not in self.left:
            raise ValueError(f"card {index} of the pack is dealt already or no card")
        self.left.remove(index)
        self.drawn.append(index)
        if not self.left:
            deck = tuple(self.pack[i] for i in self.drawn)
            self.deal = self.codes.new_deal(self.match, deck)

    def _settle(self) -> None:
        assert self.deal is not None
        summary = self.game.finish_deal(self.match, _deal(self.deal))
        for seat in range(self.players):
            self.totals[seat] += summary.gain[seat] - summary.penalty[seat]
        self.deals += 1
        if not self.setup.match or _match_over(self.match):
            self._over = True
        else:
            self._next_deal()


def _deal(deal: object) -> GameDeal:
    return deal  # type: ignore[return-value]


def _match_over(match: GameMatch) -> bool:
    return match.is_over


@dataclass(frozen=True, slots=True)
class DealGame(Generic[DealT, ActionT, ViewT]):
    """A :class:`StateGame` over a game of the interface and its :class:`DealCodes`."""

    game: Rules
    codes: DealCodes[DealT, ActionT, ViewT]
    setup: Setup

    @property
    def name(self) -> str:
        """The game's name."""
        return self.game.name

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.setup.players

    @property
    def num_actions(self) -> int:
        """How many action numbers there are."""
        return self.codes.size

    @property
    def max_chance_outcomes(self) -> int:
        """The largest pack."""
        return len(self.game.deal_plan(self.game.start_match(
            self.setup.options, self.players, self.setup.first_dealer)).pack)

    def new_initial_state(self) -> DealState[DealT, ActionT, ViewT]:
        """A state before the first card is dealt."""
        return DealState(self.game, self.codes, self.setup)


def as_state_game(game: DealGame[DealT, ActionT, ViewT]) -> StateGame[ViewT]:
    """``game`` as the protocol it implements (checked by the type checker: a
    :class:`DealGame` is a :class:`StateGame`, its states :class:`GameState`\\ s)."""
    return game
