"""A headless spectator of a Losing Lodam table: ``lodam play --bots-only``.

It wraps one bot's seat (:class:`~lodam_p2p.ui.spectator.StoryLog`) and writes the deal
as the Lodam screen's log tells it (:class:`~lodam_p2p.ui.lodam.narrate.Narrator`), every
seat in the third person and never what only that seat knows (its own exchange cards).
"""

from __future__ import annotations

from lodam_p2p.games.lodam import Action, PlayerView
from lodam_p2p.player import DealEnded
from lodam_p2p.ui.glyphs import name_seats
from lodam_p2p.ui.lodam.narrate import Narrator
from lodam_p2p.ui.narration import LogLine
from lodam_p2p.ui.spectator import NOBODY, StoryLog


class SpectatorLog(StoryLog):
    """The story of a Losing Lodam table (see the module docstring)."""

    def _narrator(self) -> Narrator:
        return Narrator(self.names, NOBODY, self.glyphs, private=False)

    def _new_deal(self, number: int, view: PlayerView) -> list[LogLine]:
        return self._narrator().new_deal(number, view)

    def _changes(self, old: PlayerView, new: PlayerView, action: Action | None
                 ) -> list[LogLine]:
        return self._narrator().changes(old, new, action)

    def _deal_ended(self, event: DealEnded) -> None:
        points = ", ".join(f"{self._name(s)} {p}" for s, p in enumerate(event.points))
        total = self.view.options.lives if self.view else max(event.lives)
        counters = " ".join(self.glyphs.counters(n, total) for n in event.lives)
        self._say(f"{name_seats(event.reason, self._name)}. Points: {points}. "
                  f"Counters: {counters}. Audit: {event.audit}.")
