"""A bot of a joined type made without naming the game: it picks its part by the view.

A table that knows its game asks ``BotType.make(..., game=NAME)`` and gets that game's
bot at once. A table that does not say (an older caller, a client shell that only holds
bot types) gets a :class:`ByGame`: at its first decision it recognises the game from
the view — each game states the type of its options (:attr:`Game.options_type`) and
every game's view carries them — and from then on the part made for that game plays,
with the options that part declares.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lodam_p2p.games import GameError, get_game

if TYPE_CHECKING:
    from lodam_p2p.bots.api import Bot, BotType


def game_of(view: Any, names: tuple[str, ...]) -> str | None:
    """The game among ``names`` whose options ``view`` carries, or ``None``."""
    options = getattr(view, "options", None)
    for name in names:
        try:
            options_type = get_game(name).options_type
        except GameError:
            continue
        if isinstance(options, options_type):
            return name
    return None


class ByGame:
    """Plays one seat with the part of ``bot_type`` made for the game of its views."""

    def __init__(self, bot_type: BotType, seat: int, seed: int, raw: Mapping[str, str]) -> None:
        self.bot_type = bot_type
        self.seat = seat
        self.seed = seed
        self.raw = dict(raw)
        self.game: str | None = None  #: the game recognised at the first decision
        self.bot: Bot[Any, Any] | None = None  #: the part's bot, made at the first decision

    def decide(self, view: Any) -> Any:
        """The answer of the part made for ``view``'s game (the first part when the
        view's game is none of them: a part for any game)."""
        if self.bot is None:
            parts = self.bot_type.parts
            game = game_of(view, tuple(g for part in parts for g in part.games))
            part = parts[0] if game is None else self.bot_type.for_game(game)
            self.game = game
            self.bot = part.factory(seat=self.seat, seed=self.seed,
                                    options=part.parse_options(part.own_options(self.raw)))
        return self.bot.decide(view)
