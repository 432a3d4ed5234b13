"""The games kit: what every game is built from and what every consumer of a game reads.

- :mod:`~lodam_p2p.games.kit.state`: the typed state API (a game makes states; a state
  is stepped by integer actions, with the deal as explicit chance events), one
  implementation for every game of the interface;
- :mod:`~lodam_p2p.games.kit.deals`: what every layer may read of a deal, a match and a
  seat's view;
- :mod:`~lodam_p2p.games.kit.values`: the plain values of the game interface (seat
  ranges, deal plans, wire actions, public moves, summaries, standings);
- :mod:`~lodam_p2p.games.kit.rules`: what both engines state the same way (their
  errors, card masks, option readers, the fields of a replay scenario);
- :mod:`~lodam_p2p.games.kit.common`: the interface's option and card doors from a
  game's value types.

The kit knows no game: the registry gives the state API of a game found by name
(:func:`lodam_p2p.games.state_game`).
A game's rules stay in its own folder (:mod:`lodam_p2p.games.lodam`,
:mod:`lodam_p2p.games.lorum`) and state their action numbers there (``states.py``).
"""

from __future__ import annotations

from lodam_p2p.games.kit.state import (
    CHANCE,
    TERMINAL,
    DealCodes,
    DealGame,
    DealState,
    GameState,
    Rules,
    Setup,
    StateGame,
    as_state_game,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "DealCodes",
    "DealGame",
    "DealState",
    "GameState",
    "Rules",
    "Setup",
    "StateGame",
    "as_state_game",
]

