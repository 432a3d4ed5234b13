"""The ``ismcts`` bot for Losing Lodam: the one search (:mod:`plugins.search`) with
Losing Lodam's hooks (:class:`plugins.lodam.hooks.LodamHooks`).

Budget: ``ismcts.time_ms`` (default 200) per decision, counted from the call, or
``ismcts.iterations=N`` for a fixed amount of work (the clock is then not read, so a
seeded run repeats exactly); ``ismcts.c`` (default 0.35) the UCB constant;
``ismcts.early_stop`` (default true) stops once the best move cannot be caught. The
registry joins this type with Lorum's ``ismcts`` (:mod:`plugins.lorum.ismcts`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from lodam_p2p.bots import BotOption, BotType, hookimpl
from lodam_p2p.games.lodam import Action, PlayerView
from ..search import Clock, IsmctsBot, at_least
from .hooks import LodamHooks, LodamWorld

#: The Lodam search bot's type.
LodamSearcher = IsmctsBot[PlayerView, Action, int, LodamWorld]
#: Lodam's default UCB exploration constant.
EXPLORATION = 0.35


def lodam_ismcts(
    *, seat: int, seed: int, options: Mapping[str, object], clock: Clock = time.perf_counter
) -> LodamSearcher:
    """The Lodam ``ismcts`` bot of ``seat``."""
    return IsmctsBot(LodamHooks(seat), seat=seat, seed=seed, options=options,
                     exploration=EXPLORATION, early_stop=True, clock=clock)


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """Provide the ``ismcts`` bot."""
    return [
        BotType(
            "ismcts",
            "information-set Monte Carlo tree search over sampled deals, per-seat values",
            lodam_ismcts,
            options=(
                BotOption("time_ms", 200, "time budget per decision in milliseconds",
                          parse=at_least(1, int)),
                BotOption("iterations", 0, "fixed iterations per decision (0: use time_ms)",
                          parse=at_least(0, int)),
                BotOption("c", EXPLORATION, "UCB exploration constant",
                          parse=at_least(0.0, float)),
                BotOption("early_stop", True, "stop once the best move cannot be caught"),
            ),
        )
    ]
