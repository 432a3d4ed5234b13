"""The Lorum ``heuristic`` bot: a fixed plan per contract, with card counting.

It reads only its seat's :class:`~lodam_p2p.games.lorum.PlayerView`: the cards gone,
the suits each seat has shown void (and, in the first tricks of ``reds`` and ``obers``,
what the first-trick restrictions prove), the cards a Lorum pass proved a seat did not
hold. The plan itself is :mod:`plugins.lorum.policy`. Deterministic: the seed is kept
only for the factory signature every bot shares.

Registered as ``heuristic`` for ``lorum``: the registry joins it with the Lodam
``heuristic`` (:mod:`plugins.lodam.heuristic`), so ``--bots heuristic`` plays whichever game
the table plays.
"""

from __future__ import annotations

from collections.abc import Mapping

from lodam_p2p.bots import BotType, hookimpl
from lodam_p2p.games.lorum import Action, PlayerView
from .policy import choose
from .spot import spot_of_view


class LorumHeuristicBot:
    """Plays each Lorum contract by its plan (see :mod:`plugins.lorum.policy`)."""

    def __init__(self, *, seat: int, seed: int, options: Mapping[str, object]) -> None:
        self.seat = seat
        self.seed = seed

    def decide(self, view: PlayerView) -> Action:
        """The plan's answer to the decision ``view`` awaits (one of ``view.legal``)."""
        if len(view.legal) == 1:
            return view.legal[0]
        return choose(spot_of_view(view))


@hookimpl
def lodam_bot_types() -> list[BotType]:
    """Provide ``heuristic`` for Lorum."""
    return [BotType("heuristic", "a plan per contract: duck, make voids, count cards, "
                    "block runs and rows", LorumHeuristicBot, games=("lorum",))]
