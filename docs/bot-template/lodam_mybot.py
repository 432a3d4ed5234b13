"""mybot: a bot for lodam_p2p. Start from here (docs/bots.md is the guide).

``decide`` gets the game's view of this seat (``view.legal`` lists every legal answer;
the rest of the view is documented per game in docs/bots.md) and returns one of
``view.legal``. This one plays a random legal answer, drawn from its seed so that a
seeded arena run replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from lodam_p2p.bots import BotOption, BotType, hookimpl
from lodam_p2p.games import SeatView


class MyBot:
    """One seat of one match."""

    def __init__(self, *, seat: int, seed: int, options: Mapping[str, object]) -> None:
        self.seat = seat
        self.rng = random.Random(seed)  # every random choice from the seed
        self.first = bool(options["first"])

    def decide(self, view: SeatView) -> object:
        """One of ``view.legal``."""
        if self.first:
            return view.legal[0]
        return self.rng.choice(list(view.legal))


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """The bot types this plugin provides."""
    return [BotType(
        "mybot", "a random legal answer (a template to start from)", MyBot,
        options=(BotOption("first", False, "always the first legal answer instead"),),
        games=("lodam", "lorum"),
        budget_s=0.5,  # seconds per decision; over it (and a margin) is an error
    )]
