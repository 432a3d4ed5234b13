"""The Lorum ``ismcts`` bot: information-set Monte Carlo tree search for every decision.

1. **Where the deal stands**: ``public_of(view)`` rebuilds the engine's public deal from
   the view's record, so the engine decides whose turn comes next.
2. **What could be hidden**: :class:`plugins.lorum_sample.Worlds` draws the other hands
   (and, blind, one's own) so that they agree with everything the view shows.
3. **One tree over all worlds**: each iteration draws a fresh world
   (``Deal.from_public``), walks the tree from the root choosing by UCB among the moves
   legal *in that world* (with availability counts, so moves possible only in some
   worlds are not favoured), adds one node, plays the deal out with the rollout policy
   (the heuristic plan of :mod:`plugins.lorum_policy`, with a little randomness, or
   uniformly random moves) and backs up, to each node, the value of the deal to the seat
   that chose its move. Steps with one legal action are not tree nodes.
4. **Values per seat** from the deal's points: how far a seat's points are below the
   others' mean, in the contract's usual range (a penalty game: lowest total wins).

Budget: ``time_ms`` (default 200) per decision, read on the injected clock once per
iteration; or ``iterations=N`` for a fixed amount of work (the clock is then not read,
and a seeded bot repeats exactly). A decision with one legal answer costs nothing; a
search that fails (a view the engine will not rebuild) answers with the heuristic plan.

Registered as ``ismcts`` for ``lorum`` with its own :data:`OPTIONS` (its ``c`` is 0.7,
Lodam's 0.35): the registry joins it with the Lodam ``ismcts`` (:mod:`plugins.ismcts`),
and ``ismcts.c=…`` at a table sets the constant of the game played there.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping

from lodam_p2p.bots import BotOption, BotType, hookimpl
from lodam_p2p.games.lorum import Action, Contract, Deal, Lay, Play, PlayerView, RulesError
from lodam_p2p.games.lorum.cards import mask_of
from .lorum_policy import choose
from .lorum_sample import Worlds
from .lorum_spot import spot_of_deal, spot_of_view

#: Part of the time budget kept back for building the search and answering.
SAFETY = 0.9
#: Per contract, the points difference that makes a value of ±0.76 (``tanh(1)``): about
#: how far one seat's points in a deal stray from the others' (the Red King: its usual
#: 8 to 32). Values stay nearly linear in points below it, so that UCB tells moves apart
#: by a point or two; larger differences still count, less and less, so that one 64
#: does not drown every other outcome.
SCALE = {
    Contract.REDS: 6.0, Contract.OBERS: 6.0, Contract.TRICKS: 4.0,
    Contract.FIRST_LAST: 8.0, Contract.FIFTH: 8.0, Contract.RED_KING: 16.0,
    Contract.QUARTET: 6.0, Contract.LORUM: 6.0,
}


class Node:
    """A move's node: its mover, visits, summed value to the mover, availability."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[Action, Node] = {}


class LorumIsmctsBot:
    """Searches every Lorum decision within its budget (see the module docstring)."""

    def __init__(
        self, *, seat: int, seed: int, options: Mapping[str, object],
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.clock = clock
        self.seconds = SAFETY * float(options.get("time_ms", 200)) / 1000.0  # type: ignore[arg-type]
        self.iterations = int(options.get("iterations", 0))  # type: ignore[call-overload]
        self.exploration = float(options.get("c", 0.7))  # type: ignore[arg-type]
        self.random_rollouts = options.get("rollout", "heuristic") == "random"
        self.epsilon = float(options.get("epsilon", 0.1))  # type: ignore[arg-type]
        self.last_iterations = 0  #: iterations of the last search (benchmarks, tests)
        self.fallbacks = 0  #: decisions answered by the plan because a search failed

    def decide(self, view: PlayerView) -> Action:
        """The answer to the decision ``view`` awaits (one of ``view.legal``)."""
        started = 0.0 if self.iterations else self.clock()
        self.last_iterations = 0
        if len(view.legal) == 1:
            return view.legal[0]
        try:
            root = self.search(view, started)
        except (RulesError, ValueError, IndexError, AssertionError):
            self.fallbacks += 1
            return choose(spot_of_view(view))
        visited = [(root.children[a].visits, -i, a) for i, a in enumerate(view.legal)
                   if a in root.children]
        if not visited:
            return choose(spot_of_view(view))
        return max(visited, key=lambda t: (t[0], t[1]))[2]

    def search(self, view: PlayerView, started: float) -> Node:
        """Run the search from ``view``; the root of its tree."""
        worlds = Worlds(view)
        root = Node(view.seat)
        done = 0
        while True:
            if self.iterations:
                if done >= self.iterations:
                    break
            elif self.clock() - started >= self.seconds:
                break
            deal = worlds.deal(self.rng)
            self._iterate(root, deal)
            done += 1
        self.last_iterations = done
        return root

    def _iterate(self, root: Node, deal: Deal) -> None:
        rng, c = self.rng, self.exploration
        path: list[Node] = []
        node = root
        while not deal.is_over:
            legal = deal.legal_actions()
            if len(legal) == 1:
                deal.apply(legal[0])
                continue
            children = node.children
            for action in legal:
                child = children.get(action)
                if child is not None:
                    child.avail += 1
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = Node(action.seat)
                child.avail = 1
                deal.apply(action)
                path.append(child)
                break
            best, best_score = legal[0], -math.inf
            for action in legal:
                child = children[action]
                score = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = action, score
            deal.apply(best)
            node = children[best]
            path.append(node)
        self._rollout(deal)
        values = deal_values(deal)
        for each in path:
            each.visits += 1
            each.total += values[each.seat]

    def _rollout(self, deal: Deal) -> None:
        rng, epsilon = self.rng, self.epsilon
        if self.random_rollouts:
            while not deal.is_over:
                legal = deal.legal_actions()
                deal.apply(legal[rng.randrange(len(legal))])
            return
        # hands kept as masks; Quartet run cards are played by the deal itself, so
        # there the hand is read afresh (its decisions are only the leads)
        hands = [mask_of(deal.hand(s)) for s in range(deal.players)]
        quartet = deal.contract is Contract.QUARTET
        while not deal.is_over:
            legal = deal.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif rng.random() < epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                seat = legal[0].seat
                hand = mask_of(deal.hand(seat)) if quartet else hands[seat]
                action = choose(spot_of_deal(deal, hand))
            if isinstance(action, Play | Lay):
                hands[action.seat] &= ~(1 << action.card.index)
            deal.apply(action)


def deal_values(deal: Deal) -> list[float]:
    """Each seat's value of a finished deal: the others' mean points less its own, scaled
    and squashed into ±1 (see :data:`SCALE`)."""
    points = deal.points
    n = len(points)
    total = sum(points)
    scale = SCALE[deal.contract]
    out = []
    for own in points:
        out.append(math.tanh(((total - own) / (n - 1) - own) / scale))
    return out


def _at_least(low: float, kind: type[int] | type[float]) -> Callable[[str], object]:
    def parse(text: str) -> object:
        value = kind(text)
        if value < low:
            raise ValueError(f"must be at least {low}, got {value}")
        return value

    return parse


def _rollout_kind(text: str) -> object:
    if text not in ("heuristic", "random"):
        raise ValueError(f"rollout is 'heuristic' or 'random', got {text!r}")
    return text


#: The options of the Lorum search, for the ``ismcts`` bot type's declaration.
OPTIONS: tuple[BotOption, ...] = (
    BotOption("time_ms", 200, "time budget per decision in milliseconds",
              parse=_at_least(1, int)),
    BotOption("iterations", 0, "fixed iterations per decision (0: use time_ms)",
              parse=_at_least(0, int)),
    BotOption("c", 0.7, "UCB exploration constant", parse=_at_least(0.0, float)),
    BotOption("rollout", "heuristic", "rollout policy: heuristic or random",
              parse=_rollout_kind),
    BotOption("epsilon", 0.1, "share of random moves in heuristic rollouts",
              parse=_at_least(0.0, float)),
)


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """Provide ``ismcts`` for Lorum."""
    return [BotType("ismcts", "information-set Monte Carlo tree search over sampled deals, "
                    "heuristic rollouts", LorumIsmctsBot, options=OPTIONS, games=("lorum",))]
