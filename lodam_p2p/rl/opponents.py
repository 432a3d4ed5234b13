"""The bundled bots (and any installed bot) as opponents inside the RL bridges: a bot
decides from the seat's view of the kit state, and its action goes back as a number::

    from lodam_p2p.rl.opponents import bot_policy

    heuristic = bot_policy("heuristic", "lodam", seat=2, seed=7)
    action = heuristic(table.unwrapped.state)   # when seat 2 is to act
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lodam_p2p.bots import BotRegistry
from lodam_p2p.games.kit import DealState

#: A policy over kit states: the number of the action the seat to act takes.
Policy = Callable[[DealState[Any, Any, Any]], int]


def bot_policy(name: str, game: str, seat: int, seed: int = 0,
               options: dict[str, str] | None = None) -> Policy:
    """The installed bot ``name`` playing ``game`` at ``seat`` (``options``: its ``k=v``
    options as texts), as a policy for the states where ``seat`` is to act."""
    bot = BotRegistry.load().get(name).for_game(game).make(seat, seed, options or {})

    def decide(state: DealState[Any, Any, Any]) -> int:
        if state.current_player() != seat:
            raise ValueError(f"seat {seat} is not to act")
        return state.codes.code(bot.decide(state.observation(seat)))

    return decide
