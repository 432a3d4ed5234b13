"""The ``random`` bot: a uniformly random legal answer to every decision, seeded.

The baseline every other bot is measured against, and the arena's fallback for a seat
whose bot failed, in every game (it needs nothing but ``view.legal``). Registered
through the ``lodam_p2p.bots`` entry-point group like any third-party plugin.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from lodam_p2p.bots import ANY_GAME, BotType, hookimpl
from lodam_p2p.games import SeatView


class RandomBot:
    """Chooses uniformly among ``view.legal`` with its own seeded generator."""

    def __init__(self, *, seat: int, seed: int, options: Mapping[str, object]) -> None:
        self.seat = seat
        self._rng = random.Random(seed)

    def decide(self, view: SeatView) -> Any:
        """Any legal answer, each with the same chance."""
        return view.legal[self._rng.randrange(len(view.legal))]


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """Provide the ``random`` bot."""
    return [BotType("random", "uniformly random legal moves (seeded); the baseline", RandomBot,
                    games=(ANY_GAME,))]
