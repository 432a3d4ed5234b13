"""The search: single-observer information-set Monte Carlo tree search on the deal machine.

Each iteration draws one world (:func:`plugins.ismcts_sample.sample`), walks the one tree
from the root choosing by UCB among the moves legal *in that world*, adds one node,
plays the rest with the rollout policy and backs up, per node, the value of the deal to
the seat that chose the move into it (see :mod:`plugins.ismcts_rewards`). A move that is
legal in only some worlds is judged by how often it was available, not by how often its
node was visited (the "availability" count), so rarely possible moves are not favoured.
The answer is the root move visited most.

The loop stops at the deadline (an injected clock, read once per iteration) or after a
fixed number of iterations, and early when the leading move can no longer be caught
within what is left.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from lodam_p2p.games.lodam import Decision, PublicDeal
from .ismcts_policy import exchange_choice, rollout
from .ismcts_sample import Constraints, sample

Clock = Callable[[], float]
Values = Callable[[PublicDeal], list[float]]
OFFER, ANSWER = Decision.OFFER, Decision.ANSWER
#: Iterations between checks of the early stop.
STOP_CHECK = 16


class Node:
    """One move's node: visits, summed value to its mover, availability, children."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[int, Node] = {}


@dataclass(frozen=True, slots=True)
class Budget:
    """When the search stops: ``seconds`` after it started (0: no time limit) or after
    ``iterations`` (0: no limit; with a limit the clock is not consulted, so seeded runs
    repeat exactly)."""

    seconds: float = 0.2
    iterations: int = 0
    early_stop: bool = True


@dataclass(slots=True)
class Outcome:
    """The result of one search."""

    code: int  #: the chosen move
    iterations: int
    visits: dict[int, int] = field(default_factory=dict)  #: root moves' visits


@dataclass(slots=True)
class Search:
    """One decision's search (see the module docstring)."""

    template: PublicDeal  #: the deal at the decision, hidden part to be filled in
    constraints: Constraints
    values: Values
    rng: random.Random
    exploration: float = 0.35
    root: Node = field(default_factory=Node)

    def run(self, budget: Budget, clock: Clock, started: float) -> Outcome:
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
        visits = {code: node.visits for code, node in self.root.children.items()}
        best = max(visits, key=lambda code: (visits[code], -code)) if visits else -1
        return Outcome(best, done, visits)

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
        world = sample(self.constraints, self.rng)
        sim = self.template.with_hidden(world.hands, world.talon_top, world.offer_card)
        me = self.constraints.seat
        node, path, expanded = self.root, [], False
        while not expanded and sim.awaiting is not None:
            seat, decision = sim.to_act, sim.awaiting
            assert seat is not None
            if (decision is OFFER or decision is ANSWER) and seat != me:
                sim.step(exchange_choice(sim))  # hidden moves: not in the tree
                continue
            legal = sim.legal
            code = self._select(node, legal)
            child = node.children.get(code)
            if child is None:
                child = node.children[code] = Node()
                expanded = len(legal) > 1
            sim.step(code)
            path.append((child, seat))
            node = child
        rollout(sim, self.rng)
        values = self.values(sim)
        for child, seat in path:
            child.visits += 1
            child.total += values[seat]

    def _select(self, node: Node, legal: tuple[int, ...]) -> int:
        """An untried move at random, else the best by UCB with availability."""
        if len(legal) == 1:
            return legal[0]
        children = node.children
        untried = []
        best, best_score = -1, -math.inf
        c = self.exploration
        for code in legal:
            child = children.get(code)
            if child is None:
                untried.append(code)
                continue
            child.avail += 1
            if child.visits:
                score = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best, best_score = code, score
        if untried:
            return untried[int(self.rng.random() * len(untried))]
        return best
