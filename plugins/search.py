"""The one search: single-observer information-set Monte Carlo tree search, for any game.

Both games' ``ismcts`` bots are this search with their game's :class:`Hooks`
(:class:`plugins.lodam.hooks.LodamHooks`, :class:`plugins.lorum.hooks.LorumHooks`).

A seat's decision has to be good across every deal it *could* be in, so each iteration
asks the hooks for one world consistent with everything the seat has seen
(:meth:`Hooks.determinize`), walks the one tree from the root choosing by UCB among the
moves legal *in that world*, adds one node, lets the hooks play the rest
(:meth:`Hooks.rollout`) and backs up, per node, the value of the finished world to the
seat that chose the move into it (:meth:`Hooks.values`): each seat in the tree
maximises its own value, as a table of independent opponents plays. A move legal in
only some worlds is judged by how often it was available, not by how often its node
was visited (the "availability" count), so rarely possible moves are not favoured.
Moves the tree should not branch on (another seat's secret choice) are played by the
hooks (:meth:`Hooks.hidden`). A step with one legal move is a node that does not count
as the iteration's expansion, or, if the game's moves name their mover, no node at all
(:attr:`Hooks.forced_nodes`). The answer is the root move visited most.

A world is stepped with the kit's state API names (:class:`World`: ``current_player``,
``legal_actions``, ``apply``, ``is_terminal``; :class:`lodam_p2p.games.kit.GameState`
answers them), by whatever hashable moves the game's hooks use.

The loop stops at the deadline (an injected clock, read once per iteration) or after a
fixed number of iterations (the clock is then never read, so a seeded search repeats
exactly), and early, if asked, when the leading move can no longer be caught.

:class:`IsmctsBot` is the bot around the search: budget and options, the view's
decision, and the game's fallback should a search fail.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

Clock = Callable[[], float]
#: Part of the time budget kept back for building the search and answering.
SAFETY = 0.9
#: Iterations between checks of the early stop.
STOP_CHECK = 16

KeyT = TypeVar("KeyT", bound=Hashable)
WorldT = TypeVar("WorldT", bound="World[Any]")
ViewT = TypeVar("ViewT")
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
ActionT = TypeVar("ActionT")
ActionT_co = TypeVar("ActionT_co", covariant=True)


class World(Protocol[KeyT]):
    """One determinized world, stepped as the kit's state API steps a state."""

    def current_player(self) -> int:
        """The seat to act (meaningless once terminal)."""
        ...

    def legal_actions(self) -> Sequence[KeyT]:
        """The moves legal now."""
        ...

    def apply(self, action: KeyT) -> None:
        """Take ``action`` for the seat to act."""
        ...

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        ...


class Hooks(Protocol[ViewT_contra, ActionT_co, KeyT, WorldT]):
    """What a game tells the search: its knowledge as small, named hooks.

    A bot holds one; :meth:`prepare` readies it for one decision, and the search then
    calls the world hooks (``determinize`` … ``values``) once or a few times an
    iteration."""

    #: The errors a failed :meth:`prepare` or world may raise: the bot then falls back.
    failures: tuple[type[Exception], ...]
    #: Whether :meth:`hidden` can ever answer a move (if not, the search never asks).
    secrets: bool
    #: Whether a step with one legal move is a tree node. It must be when a move does
    #: not name its mover (the same key could then be another seat's move in another
    #: world); when moves name their seat, forced steps can be played past.
    forced_nodes: bool

    def untried(self, rng: random.Random, count: int) -> int:
        """Which of ``count`` untried moves to try: a uniform draw (each game keeps its
        own way of drawing, so that its seeded searches repeat as they always have)."""
        ...

    def observe(self, view: ViewT_contra) -> None:
        """See every view the seat is shown (also those not searched)."""
        ...

    def searchable(self, view: ViewT_contra) -> bool:
        """Whether ``view``'s decision is searched (else :meth:`fallback` answers)."""
        ...

    def prepare(self, view: ViewT_contra) -> None:
        """Get ready to search ``view``'s decision."""
        ...

    def determinize(self, rng: random.Random) -> WorldT:
        """A world that agrees with everything the seat has seen, hidden cards drawn."""
        ...

    def hidden(self, world: WorldT) -> KeyT | None:
        """The move to play without branching (a secret choice of another seat), or
        ``None`` when the seat to act's move is a tree edge."""
        ...

    def rollout(self, world: WorldT, rng: random.Random) -> None:
        """Play ``world`` to its end."""
        ...

    def values(self, world: WorldT) -> Sequence[float]:
        """Per seat, the value of the finished ``world`` (higher is better)."""
        ...

    def answer(self, view: ViewT_contra, visits: Mapping[KeyT, int]) -> ActionT_co:
        """The action for the root move visited most (the game breaks ties)."""
        ...

    def fallback(self, view: ViewT_contra, rng: random.Random) -> ActionT_co:
        """An answer without a search (the rollout policy's, from the view alone)."""
        ...


class Node:
    """One move's node: visits, summed value to its mover, availability, children."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Hashable, Node] = {}


@dataclass(frozen=True, slots=True)
class Budget:
    """When the search stops: ``seconds`` after it started (0: no time limit) or after
    ``iterations`` (0: no limit; with a limit the clock is not consulted, so seeded runs
    repeat exactly); ``early_stop`` once the leading move cannot be caught."""

    seconds: float = 0.2
    iterations: int = 0
    early_stop: bool = True


@dataclass(slots=True)
class Outcome(Generic[KeyT]):
    """The result of one search."""

    best: KeyT | None  #: the root move visited most (``None``: no iteration ran)
    iterations: int
    visits: dict[KeyT, int] = field(default_factory=dict)  #: root moves' visits
    totals: dict[KeyT, float] = field(default_factory=dict)  #: root moves' summed values


@dataclass(slots=True)
class ISMCTS(Generic[KeyT, WorldT]):
    """One decision's search over the worlds of ``hooks`` (see the module docstring)."""

    hooks: Hooks[object, object, KeyT, WorldT]
    rng: random.Random
    exploration: float
    root: Node = field(default_factory=Node)

    def run(self, budget: Budget, clock: Clock, started: float) -> Outcome[KeyT]:
        """Iterate within ``budget`` (time counted from ``started`` on ``clock``)."""
        deadline = started + budget.seconds if budget.seconds > 0 else math.inf
        done = 0
        while True:
            if budget.iterations:
                if done >= budget.iterations:
                    break
            elif clock() >= deadline:
                break
            self.iterate()
            done += 1
            if budget.early_stop and done % STOP_CHECK == 0:
                left = self._left(budget, done, clock, started, deadline)
                if self._decided(left):
                    break
        children = self.root.children
        visits: dict[KeyT, int] = {k: n.visits for k, n in children.items()}  # type: ignore[misc]
        totals: dict[KeyT, float] = {k: n.total for k, n in children.items()}  # type: ignore[misc]
        best = max(visits, key=visits.__getitem__) if visits else None
        return Outcome(best, done, visits, totals)

    def _left(
        self, budget: Budget, done: int, clock: Clock, started: float, deadline: float
    ) -> float:
        """Iterations still to come, estimated from the rate so far."""
        if budget.iterations:
            return float(budget.iterations - done)
        now = clock()
        rate = done / max(now - started, 1e-9)
        return rate * max(deadline - now, 0.0)

    def _decided(self, left: float) -> bool:
        counts = sorted((n.visits for n in self.root.children.values()), reverse=True)
        if len(counts) < 2:
            return bool(counts) and left < 1
        return counts[0] - counts[1] > left

    def iterate(self) -> None:
        """One iteration: draw a world, descend, expand one node, roll out, back up."""
        hooks, rng = self.hooks, self.rng
        world = hooks.determinize(rng)
        hidden = hooks.hidden if hooks.secrets else None
        forced_nodes = hooks.forced_nodes
        is_terminal, apply = world.is_terminal, world.apply
        current_player, legal_actions = world.current_player, world.legal_actions
        select = self._select
        node, path, expanded = self.root, [], False
        while not expanded and not is_terminal():
            if hidden is not None:
                secret = hidden(world)
                if secret is not None:
                    apply(secret)
                    continue
            legal = legal_actions()
            if not forced_nodes and len(legal) == 1:
                apply(legal[0])
                continue
            seat = current_player()
            move = select(node, legal)
            children = node.children
            child = children.get(move)
            if child is None:
                child = children[move] = Node()
                expanded = len(legal) > 1
            apply(move)
            path.append((child, seat))
            node = child
        hooks.rollout(world, rng)
        values = hooks.values(world)
        for child, seat in path:
            child.visits += 1
            child.total += values[seat]

    def _select(self, node: Node, legal: Sequence[KeyT]) -> KeyT:
        """An untried move at random, else the best by UCB with availability."""
        if len(legal) == 1:
            return legal[0]
        children = node.children
        untried = []
        best, best_score = legal[0], -math.inf
        c, log, sqrt = self.exploration, math.log, math.sqrt
        for move in legal:
            child = children.get(move)
            if child is None:
                untried.append(move)
                continue
            child.avail += 1
            visits = child.visits
            if visits:
                score = child.total / visits + c * sqrt(log(child.avail) / visits)
                if score > best_score:
                    best, best_score = move, score
        if untried:
            return untried[self.hooks.untried(self.rng, len(untried))]
        return best


class IsmctsBot(Generic[ViewT, ActionT, KeyT, WorldT]):
    """A seat searching every decision within its budget with its game's ``hooks``.

    Options: ``time_ms`` (default 200) per decision, counted from the call;
    ``iterations`` (0: use the time) for a fixed amount of work; ``c``, the UCB
    exploration constant (the game's default: ``exploration``); ``early_stop`` (the
    game's default: ``early_stop``). A decision with one legal answer costs nothing;
    should the search fail, the hooks' fallback answers and :attr:`fallbacks` counts it.
    """

    def __init__(
        self,
        hooks: Hooks[ViewT, ActionT, KeyT, WorldT],
        *,
        seat: int,
        seed: int,
        options: Mapping[str, object],
        exploration: float,
        early_stop: bool = True,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.hooks = hooks
        self.seat = seat
        self.rng = random.Random(seed)
        self.clock = clock
        time_ms = float(options.get("time_ms", 200))  # type: ignore[arg-type]
        self.budget = Budget(
            seconds=SAFETY * time_ms / 1000.0,
            iterations=int(options.get("iterations", 0)),  # type: ignore[call-overload]
            early_stop=bool(options.get("early_stop", early_stop)),
        )
        self.exploration = float(options.get("c", exploration))  # type: ignore[arg-type]
        self.last: Outcome[KeyT] | None = None  #: the last search, for benchmarks and tests
        self.fallbacks = 0  #: decisions answered by the fallback because a search failed

    @property
    def last_iterations(self) -> int:
        """Iterations of the last decision's search (0: none)."""
        return 0 if self.last is None else self.last.iterations

    def decide(self, view: ViewT) -> ActionT:
        """The answer to the decision ``view`` awaits (one of its legal actions)."""
        hooks = self.hooks
        started = 0.0 if self.budget.iterations else self.clock()
        hooks.observe(view)
        self.last = None
        legal: Sequence[ActionT] = view.legal  # type: ignore[attr-defined]
        if len(legal) == 1:
            return legal[0]
        if not hooks.searchable(view):
            return hooks.fallback(view, self.rng)
        try:
            hooks.prepare(view)
            search = ISMCTS(hooks, self.rng, self.exploration)  # type: ignore[arg-type]
            outcome = self.last = search.run(self.budget, self.clock, started)
        except hooks.failures:
            self.fallbacks += 1
            return hooks.fallback(view, self.rng)
        if outcome.best is None:  # no time for a single iteration
            return hooks.fallback(view, self.rng)
        return hooks.answer(view, outcome.visits)


def at_least(low: float, kind: type[int] | type[float]) -> Callable[[str], object]:
    """A parser of numbers of ``kind`` no smaller than ``low`` (for bot options)."""

    def parse(text: str) -> object:
        value = kind(text)
        if value < low:
            raise ValueError(f"must be at least {low}, got {value}")
        return value

    return parse
