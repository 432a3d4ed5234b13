"""Bots at a person's pace: a wrapper Player that waits before each decision.

Bots answer at once; a person could not follow a trick played in a millisecond. The
wrapper waits ``delay`` seconds before each card played and a quarter of it before the
quick decisions (offers, answers, declarations), which at a table of five come several
times per trick. With a ``hold`` event it also waits while the person reads the end of
a deal (see :class:`~lodam_p2p.ui.player.TerminalPlayer`).
"""

from __future__ import annotations

import asyncio

from lodam_p2p.player import Player, TableEvent
from lodam_p2p.rules import Action, Decision, PlayerView

#: Default seconds before a bot plays a card.
DEFAULT_DELAY = 0.6
#: Part of the delay spent on the other decisions.
QUICK = 0.25


class PacedPlayer:
    """Wraps a player (a bot) so that it decides no faster than a person can follow."""

    def __init__(self, inner: Player, delay: float = DEFAULT_DELAY,
                 hold: asyncio.Event | None = None) -> None:
        self.inner = inner
        self.delay = delay
        self.hold = hold

    def notify(self, event: TableEvent) -> None:
        """Pass ``event`` on."""
        self.inner.notify(event)

    async def decide(self, view: PlayerView) -> Action:
        """Wait (for the person, then the delay), then ask the wrapped player."""
        if self.hold is not None:
            await self.hold.wait()
        pause = self.delay if view.awaiting is Decision.PLAY else self.delay * QUICK
        if pause > 0:
            await asyncio.sleep(pause)
        return await self.inner.decide(view)
