"""The games kit: what every game is built from and what every consumer of a game reads.

- :mod:`~lodam_p2p.games.kit.state`: the typed state API (a game makes states; a state
  is stepped by integer actions, with the deal as explicit chance events), one
  implementation for every game of the interface;
- :func:`state_game`: that API for a game found by name.

A game's rules stay in its own folder (:mod:`lodam_p2p.games.lodam`,
:mod:`lodam_p2p.games.lorum`) and state their action numbers there (``states.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

from lodam_p2p.games.kit.state import (
    CHANCE,
    TERMINAL,
    DealCodes,
    DealGame,
    DealState,
    GameState,
    Setup,
    StateGame,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "DealCodes",
    "DealGame",
    "DealState",
    "GameState",
    "Setup",
    "StateGame",
    "state_game",
]


def state_game(name: str, players: int | None = None, options: Iterable[str] = (), *,
               first_dealer: int = 0, match: bool = False) -> DealGame[object, object]:
    """The state API of the game called ``name``: ``players`` seats (default 4, or the
    nearest the game seats), options from ``k=v`` texts, one deal or (``match``) a
    whole match. ``ValueError`` for a game without action numbers or a bad option."""
    from lodam_p2p.games.registry import get_game  # noqa: PLC0415 -- registry imports kit

    game = get_game(name)
    codes = game.state_codes
    if codes is None:
        raise ValueError(f"{game.title} has no action numbers for the state API")
    seats = 4 if players is None else players
    if players is None and seats not in game.seats:
        seats = min(max(seats, game.seats.low), game.seats.high)
    game.seats.check(seats, game.name)
    setup = Setup(seats, game.parse_options(list(options)), first_dealer, match)
    return DealGame(game, codes, setup)
