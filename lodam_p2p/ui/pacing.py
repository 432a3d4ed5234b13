"""Bots at a person's pace: a wrapper Player that waits before each decision.

Bots answer at once; a person could not follow a trick played in a millisecond. The
wrapper waits ``delay`` seconds before each card played and a quarter of it before the
quick decisions (offers, answers, declarations), which at a table of five come several
times per trick. With a ``hold`` event it also waits while the person reads the end of
a deal (see :class:`~lodam_p2p.ui.lodam.player.TerminalPlayer`) — at a networked table no
longer than ``hold_limit`` seconds: there the bot's silence is timed like anyone's, and a
person idle at the panel (or gone for a drink) must not make the bot's seat silent.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from lodam_p2p.games.lodam import Decision
from lodam_p2p.player import Player, TableEvent

#: Default seconds before a bot plays a card.
DEFAULT_DELAY = 0.6
#: Decisions, by their value in either game, that put a card on the table.
CARD_DOWN = (Decision.PLAY.value, "lay")
#: Part of the delay spent on the other decisions.
QUICK = 0.25
#: Longest wait for the person at a networked table, in seconds (see :func:`hold_limit`).
HOLD_S = 10.0


class PacedPlayer:
    """Wraps a player (a bot) so that it decides no faster than a person can follow."""

    def __init__(self, inner: Player, delay: float = DEFAULT_DELAY,
                 hold: asyncio.Event | None = None, hold_limit: float | None = None) -> None:
        self.inner = inner
        self.delay = delay
        self.hold = hold
        self.hold_limit = hold_limit

    def notify(self, event: TableEvent) -> None:
        """Pass ``event`` on."""
        self.inner.notify(event)

    async def decide(self, view: Any) -> Any:
        """Wait (for the person, then the delay), then ask the wrapped player."""
        if self.hold is not None and not self.hold.is_set():
            # asyncio.timeout, not wait_for: 3.11's wait_for drops a cancel that comes
            # as the person lets go, and the stopped bot would go on to decide
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.hold_limit):
                    await self.hold.wait()
        pause = self.delay if _card_down(view) else self.delay * QUICK
        if pause > 0:
            await asyncio.sleep(pause)
        return await self.inner.decide(view)


def _card_down(view: Any) -> bool:
    """Whether the decision puts a card on the table (a Lodam play, a Lorum play or lay):
    those get the whole delay."""
    return getattr(view.awaiting, "value", None) in CARD_DOWN


def hold_limit(timeout_s: float | None) -> float | None:
    """How long bots wait for the person: ``None`` (as long as it takes) at an offline
    table, where nothing is timed; else well within the seats' timeout."""
    if timeout_s is None:
        return None
    return min(HOLD_S, timeout_s / 3)


def paced_by(hold: asyncio.Event, delay: float, limit: float | None
             ) -> Callable[[Player], Player]:
    """The wrapper for the bots seated beside a person (``hold``: the person's)."""
    return lambda player: PacedPlayer(player, delay, hold, limit)
