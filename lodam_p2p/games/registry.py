"""Finding games: the ``lodam_p2p.games`` entry-point group, by name.

An installed package provides a game the way it provides a bot, with an entry point
naming its :class:`~lodam_p2p.games.interface.Game` value::

    [project.entry-points."lodam_p2p.games"]
    mygame = "mypackage.mygame:GAME"

The games bundled with this project are declared in its own ``pyproject.toml`` the same
way. A source checkout whose install metadata predates a bundled game still finds it
through :data:`BUNDLED` (the same targets as those entry points).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable
from importlib.metadata import entry_points

from lodam_p2p.games.interface import Game
from lodam_p2p.games.kit.params import Unknown
from lodam_p2p.games.kit.state import DealGame, Setup
from lodam_p2p.games.kit.values import GameError, SeatRange, UnknownGameError

#: The entry-point group games are declared in.
ENTRY_POINT_GROUP = "lodam_p2p.games"
#: The game a table plays when none is named.
DEFAULT_GAME = "lodam"
#: The bundled games and their entry-point targets (also declared in pyproject.toml).
BUNDLED: dict[str, str] = {
    "lodam": "lodam_p2p.games.lodam:GAME",
    "lorum": "lodam_p2p.games.lorum.game:GAME",
}


@functools.cache
def _targets() -> dict[str, str]:
    """Every declared game and its ``module:attribute`` target."""
    found = dict(BUNDLED)
    for point in entry_points(group=ENTRY_POINT_GROUP):
        found[point.name] = point.value
    return found


@functools.cache
def _load(name: str, target: str) -> Game:
    module_name, _, attribute = target.partition(":")
    try:
        value = getattr(importlib.import_module(module_name), attribute or "GAME")
    except Exception as err:  # an installed package's broken game: one clear line
        raise GameError(f"game {name!r} ({target}) failed to load: "
                        f"{type(err).__name__}: {err}") from None
    if not isinstance(value, Game):
        raise GameError(f"game {name!r} ({target}) is not a Game")
    if value.name != name:
        raise GameError(f"game {name!r} ({target}) calls itself {value.name!r}")
    return value


def game_names() -> list[str]:
    """Every installed game's name, sorted."""
    return sorted(_targets())


def get_game(name: str) -> Game:
    """The game called ``name``; :class:`UnknownGameError` listing the installed ones."""
    targets = _targets()
    if name not in targets:
        known = ", ".join(sorted(targets)) or "none"
        raise UnknownGameError(f"unknown game {name!r}: no engine is installed for it "
                               f"(installed: {known})")
    return _load(name, targets[name])


def games() -> list[Game]:
    """Every installed game, by name."""
    return [get_game(name) for name in game_names()]


def any_seat_range() -> SeatRange:
    """The widest seat range of the installed games (what a lobby may announce). A game
    that fails to load is left out here; naming it (:func:`get_game`) reports why."""
    ranges = []
    for name in game_names():
        try:
            ranges.append(get_game(name).seats)
        except GameError:
            continue
    if not ranges:
        raise GameError("no game is installed")
    return SeatRange(min(r.low for r in ranges), max(r.high for r in ranges))


def state_game(name: str, players: int | None = None, options: Iterable[str] = (), *,
               first_dealer: int = 0, match: bool = False) -> DealGame[Unknown, Unknown, Unknown]:
    """The state API of the game called ``name``: ``players`` seats (default 4, or the
    nearest the game seats), options from ``k=v`` texts, one deal or (``match``) a
    whole match. ``ValueError`` for a game without action numbers or a bad option."""
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
