"""The ``ismcts`` bot for Lorum: the one search (:mod:`plugins.search`) with Lorum's
hooks (:class:`plugins.lorum.hooks.LorumHooks`).

Budget: ``time_ms`` (default 200) per decision, read on the injected clock once per
iteration; or ``iterations=N`` for a fixed amount of work (the clock is then not read,
and a seeded bot repeats exactly). ``rollout`` (heuristic or random) and ``epsilon``
choose the rollouts. Registered as ``ismcts`` for ``lorum`` with its own
:data:`OPTIONS` (its ``c`` is 0.7, Lodam's 0.35): the registry joins it with the Lodam
``ismcts`` (:mod:`plugins.lodam.ismcts`), and ``ismcts.c=…`` at a table sets the
constant of the game played there.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from lodam_p2p.bots import BotOption, BotType, hookimpl
from lodam_p2p.games.lorum import Action, PlayerView
from ..search import Clock, IsmctsBot, at_least
from .hooks import LorumHooks, LorumWorld

#: The Lorum search bot's type.
LorumSearcher = IsmctsBot[PlayerView, Action, Action, LorumWorld]
#: Lorum's default UCB exploration constant.
EXPLORATION = 0.7


def lorum_ismcts(
    *, seat: int, seed: int, options: Mapping[str, object], clock: Clock = time.perf_counter
) -> LorumSearcher:
    """The Lorum ``ismcts`` bot of ``seat`` (no early stop: Lorum never had one)."""
    hooks = LorumHooks(random_rollouts=options.get("rollout", "heuristic") == "random",
                       epsilon=float(options.get("epsilon", 0.1)))  # type: ignore[arg-type]
    return IsmctsBot(hooks, seat=seat, seed=seed, options=options,
                     exploration=EXPLORATION, early_stop=False, clock=clock)


def _rollout_kind(text: str) -> object:
    if text not in ("heuristic", "random"):
        raise ValueError(f"rollout is 'heuristic' or 'random', got {text!r}")
    return text


#: The options of the Lorum search, for the ``ismcts`` bot type's declaration.
OPTIONS: tuple[BotOption, ...] = (
    BotOption("time_ms", 200, "time budget per decision in milliseconds",
              parse=at_least(1, int)),
    BotOption("iterations", 0, "fixed iterations per decision (0: use time_ms)",
              parse=at_least(0, int)),
    BotOption("c", EXPLORATION, "UCB exploration constant", parse=at_least(0.0, float)),
    BotOption("rollout", "heuristic", "rollout policy: heuristic or random",
              parse=_rollout_kind),
    BotOption("epsilon", 0.1, "share of random moves in heuristic rollouts",
              parse=at_least(0.0, float)),
)


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """Provide ``ismcts`` for Lorum."""
    return [BotType("ismcts", "information-set Monte Carlo tree search over sampled deals, "
                    "heuristic rollouts", lorum_ismcts, options=OPTIONS, games=("lorum",))]
