"""A bot at a table: the :class:`~lodam_p2p.player.Player` a table driver talks to.

Table drivers (the network session, the local table) await ``Player.decide`` and tell
players every public event. A bot answers synchronously and only needs its view, so the
adapter ignores events, asks the bot through :func:`~lodam_p2p.bots.guard.ask` (its
answer checked against the engine's legal list) and, should the bot fail, lets the
fallback type play the seat from then on, as the arena does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lodam_p2p.bots.api import Bot, BotType
from lodam_p2p.bots.guard import BotAnswerError, ask

if TYPE_CHECKING:
    from lodam_p2p.games import SeatView
    from lodam_p2p.player import TableEvent


class BotPlayer:
    """Seats a bot: ``notify`` is ignored, ``decide`` asks the bot (or its fallback)."""

    #: a bot needs no view between its turns (:class:`~lodam_p2p.player.Player`); a
    #: wrapper that narrates a bot's seat is a player of its own and gets them
    wants_views = False

    def __init__(self, name: str, bot: Bot, fallback: BotType | None = None, seed: int = 0):
        self.name = name
        self.bot = bot
        self.fallback = fallback
        self.seed = seed
        #: The errors of the bot, one line each (the seat was then played by the fallback).
        self.errors: list[str] = []

    def notify(self, event: TableEvent) -> None:
        """Bots decide from their view alone; events need no answer."""

    async def decide(self, view: SeatView) -> Any:
        """The bot's checked answer; after a failure, the fallback's (or the first legal)."""
        try:
            return ask(self.bot, self.name, view)
        except BotAnswerError as err:
            self.errors.append(str(err))
        if self.fallback is not None:
            self.bot, self.name = self.fallback.make(view.seat, self.seed), self.fallback.name
            try:
                return ask(self.bot, self.name, view)
            except BotAnswerError as err:
                self.errors.append(str(err))
        return view.legal[0]
