"""The person at a seat: a :class:`~lodam_p2p.player.Player` answered from the keyboard.

The table driver calls :meth:`TerminalPlayer.notify` with every event (the model takes it
in and the screen is redrawn) and awaits :meth:`TerminalPlayer.decide`, which puts the
question on the screen and waits for the key handler to call :meth:`answer`.

Two decisions are answered without asking: an exchange offer or answer where "no offer"
or "decline" is the only legal choice (the person holds no coat or card of the kind, and
knows it). Everything else is asked, even a declaration that the rules would refuse:
see :mod:`lodam_p2p.ui.lodam.choices`.

:attr:`TerminalPlayer.hold` is cleared while the end-of-deal panel is open; the pacing
wrapper of the bots at the same table waits on it, so the next deal starts when the
person has read how the last one ended. Once the person's seat is out of the match it
is no longer cleared: the person watches, and the bots play on at their own pace.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from lodam_p2p.games.lodam import Action, Decision, PlayerView
from lodam_p2p.player import DealEnded, MatchEnded, TableEvent, ViewChanged
from lodam_p2p.ui.lodam.model import Panel, TableModel
from lodam_p2p.ui.seated import SeatedPerson, describe

log = logging.getLogger(__name__)

#: Decisions answered at once when only one answer is legal.
OBVIOUS = (Decision.OFFER, Decision.ANSWER)


class TerminalPlayer(SeatedPerson[Action]):
    """A person at the table; see the module docstring."""

    def __init__(self, model: TableModel, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(model)
        self.model = model
        self.clock = clock

    def notify(self, event: TableEvent) -> None:
        """Take in ``event``, log it to the file log, and redraw."""
        log.info("event %s", _describe(event))
        had_trump = self.model.trump_seen_at is not None
        self.model.apply(event, self.clock())
        if isinstance(event, MatchEnded) or (isinstance(event, DealEnded)
                                             and not self.model.out):
            self.hold.clear()  # a person who is out only watches: nobody waits for them
        if isinstance(event, ViewChanged) and not had_trump and self.model.trump_seen_at:
            self._redraw_after(event.view.options.trump_show_seconds)
        self.changed()

    def _redraw_after(self, seconds: float) -> None:
        """Redraw once the trump's show time is over (``trump_memory``)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        loop.call_later(seconds + 0.05, self.changed)

    async def decide(self, view: PlayerView) -> Action:
        """Ask the person (see the module docstring for the two obvious cases)."""
        if view.awaiting in OBVIOUS and len(view.legal) == 1:
            return view.legal[0]
        return await self.ask(view)

    def panel_closed(self, panel: Panel) -> None:
        """The person closed a panel; after the end of a deal, the table may go on."""
        if panel is Panel.DEAL_END:
            self.hold.set()


def _describe(event: TableEvent) -> str:
    """A short line for the file log (a view is summed up, not dumped)."""
    return describe(event, lambda v: f"to_act={v.to_act} awaiting={v.awaiting} "
                                      f"trick={len(v.tricks)}")
