"""The ``ismcts`` bot: information-set Monte Carlo tree search for every decision.

Design
------
Losing Lodam hides most of the deal: the other hands, the talon, the cards of other
seats' exchanges. A seat's decision therefore has to be good across every deal it
*could* be in. The bot searches exactly that set, one sampled world at a time:

1. **Where the deal stands.** The view's public record is replayed into the engine's
   ``PublicDeal`` (:mod:`plugins.ismcts_replay`) — the engine, not this bot, decides
   whose turn comes next, so the simulations start at the right point of the trick or
   exchange window.
2. **What could be hidden.** :mod:`plugins.ismcts_sample` turns the view into
   constraints (voids, cards we traded, offers' kinds, the turned trump, hand sizes)
   and draws worlds that meet them. No world ever contains a fact the seat does not
   know; the bot never sees more than its ``PlayerView``.
3. **One tree over all worlds** (:mod:`plugins.ismcts_search`). Each iteration draws
   a fresh world and walks a single tree whose edges are moves, choosing by UCB among
   the moves legal in that world, with availability counts. Public moves of every seat
   (plays, swallows, declarations) are tree edges; other seats' offers and answers are
   hidden moves, so they are not branched on but played by the policy. The rest of the
   deal is played by a light card-play policy (:mod:`plugins.ismcts_policy`) on the
   unchecked path of the rules engine's own deal machine
   (:class:`lodam_p2p.games.lodam.machine.DealMachine`), the one the checked engine runs.
4. **Per-seat values.** A finished deal is worth, to each seat, an estimate of its
   match chances from the counters left (:mod:`plugins.ismcts_rewards`); each seat in
   the tree maximises its own value, which is how a table of independent opponents
   actually plays — not a two-sided "us against them" game.

Determinizing once per iteration (rather than searching a few worlds to the full
budget each) spreads the budget over many worlds and avoids trusting any one of them;
the single tree shares what the worlds have in common: our own moves.

Budget: ``ismcts.time_ms`` (default 200) per decision, counted from the call, or
``ismcts.iterations=N`` for a fixed amount of work (the clock is then not read, so a
seeded run repeats exactly). A decision with one legal answer costs nothing. Should
anything go wrong in the search (a view that does not replay), the bot answers with
the rollout policy's choice rather than fail the seat.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping

from lodam_p2p.bots import BotOption, BotType, hookimpl
from lodam_p2p.games.lodam import (
    Action,
    Decision,
    PlayerView,
    PublicDeal,
    action_of,
    code_of,
    mask_of,
)
from .ismcts_policy import boundary_choice, play_choice
from .ismcts_replay import ReplayError, WindowLog, replay
from .ismcts_rewards import deal_values
from .ismcts_sample import Constraints
from .ismcts_search import Budget, Outcome, Search

#: Part of the budget kept back for building the search and answering.
SAFETY = 0.9


class IsmctsBot:
    """Searches every decision within its budget (see the module docstring)."""

    def __init__(
        self,
        *,
        seat: int,
        seed: int,
        options: Mapping[str, object],
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.clock = clock
        time_ms = float(options.get("time_ms", 200))  # type: ignore[arg-type]
        iterations = int(options.get("iterations", 0))  # type: ignore[call-overload]
        self.budget = Budget(
            seconds=SAFETY * time_ms / 1000.0,
            iterations=iterations,
            early_stop=bool(options.get("early_stop", True)),
        )
        self.exploration = float(options.get("c", 0.35))  # type: ignore[arg-type]
        self.log = WindowLog()
        self.last: Outcome | None = None  #: the last search, for benchmarks and tests
        self.fallbacks = 0  #: decisions answered by the policy because a search failed

    def decide(self, view: PlayerView) -> Action:
        """The answer to the decision ``view`` awaits."""
        started = self.clock()
        windows = self.log.observe(view)
        self.last = None
        if len(view.legal) == 1:
            return view.legal[0]
        if view.awaiting is Decision.CHALLENGE:
            return self._by_policy(view)
        try:
            search = self.prepare(view, windows)
            outcome = self.last = search.run(self.budget, self.clock, started)
        except (ReplayError, ValueError, IndexError):
            self.fallbacks += 1
            return self._by_policy(view)
        if outcome.code < 0:  # no time for a single iteration
            return self._by_policy(view)
        assert view.awaiting is not None
        action = action_of(view.seat, view.awaiting, outcome.code)
        return action if action in view.legal else view.legal[0]

    def prepare(self, view: PlayerView, windows: tuple[tuple[int, int], ...]) -> Search:
        """The search of ``view``'s decision, ready to run."""
        try:
            public = replay(view, windows)
        except ReplayError:
            public = replay(view)
        hands = [0] * view.players
        hands[view.seat] = mask_of(view.hand)
        template = public.with_hidden(hands, -1)
        constraints = Constraints.of(view, windows)
        lives, active = view.lives, view.active
        winning, target = view.options.winning, view.options.lives

        def values(sim: PublicDeal) -> list[float]:
            return deal_values(
                lives, active, sim.counter_change, sim.points, winning=winning, target=target
            )

        return Search(template, constraints, values, self.rng, self.exploration)

    def _by_policy(self, view: PlayerView) -> Action:
        """The simulation policy's answer, from the view alone (the fallback)."""
        try:
            public = replay(view)
            hands = [0] * view.players
            hands[view.seat] = mask_of(view.hand)
            sim = public.with_hidden(hands, -1)
            if sim.awaiting is Decision.PLAY:
                code = play_choice(sim, self.rng)
            elif view.awaiting in (Decision.DECLARE, Decision.CHALLENGE):
                code = boundary_choice(sim)
            else:
                return view.legal[0]
        except (ReplayError, ValueError, IndexError):
            return view.legal[0]
        legal = {code_of(a): a for a in view.legal}
        return legal.get(code, view.legal[0])


def _at_least(low: float, kind: type[int] | type[float]) -> Callable[[str], object]:
    """A parser of numbers of ``kind`` no smaller than ``low``."""

    def parse(text: str) -> object:
        value = kind(text)
        if value < low:
            raise ValueError(f"must be at least {low}, got {value}")
        return value

    return parse


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """Provide the ``ismcts`` bot."""
    return [
        BotType(
            "ismcts",
            "information-set Monte Carlo tree search over sampled deals, per-seat values",
            IsmctsBot,
            options=(
                BotOption("time_ms", 200, "time budget per decision in milliseconds",
                          parse=_at_least(1, int)),
                BotOption("iterations", 0, "fixed iterations per decision (0: use time_ms)",
                          parse=_at_least(0, int)),
                BotOption("c", 0.35, "UCB exploration constant", parse=_at_least(0.0, float)),
                BotOption("early_stop", True, "stop once the best move cannot be caught"),
            ),
        )
    ]
