"""A headless spectator of a Losing Lodam table: ``lodam play --bots-only``.

It wraps one bot's seat (:class:`~lodam_p2p.ui.spectator.StoryLog`) and writes the deal
as the Lodam screen's log tells it (:class:`~lodam_p2p.ui.lodam.narrate.Narrator`), every
seat in the third person and never what only that seat knows (its own exchange cards).
"""

from __future__ import annotations

from typing import TextIO

from lodam_p2p.games.lodam import Action, PlayerView
from lodam_p2p.player import DealEnded, Player
from lodam_p2p.ui.glyphs import Glyphs, name_seats
from lodam_p2p.ui.lodam.narrate import Narrator
from lodam_p2p.ui.spectator import NOBODY, StoryLog


class SpectatorLog(StoryLog):
    """The story of a Losing Lodam table (see the module docstring)."""

    def __init__(self, inner: Player, out: TextIO, glyphs: Glyphs | None = None) -> None:
        super().__init__(inner, out, glyphs)
        self.view: PlayerView | None = None

    def _narrator(self) -> Narrator:
        return Narrator(self.names, NOBODY, self.glyphs, private=False)

    def _view(self, view: PlayerView, action: Action | None) -> None:
        narrator = self._narrator()
        if self.new_deal:
            self.deals, self.new_deal, self.view = self.deals + 1, False, None
            lines = narrator.new_deal(self.deals, view)
        else:
            assert self.view is not None
            lines = narrator.changes(self.view, view, action)
        for _, text in lines:
            self._say(text)
        self.view = view

    def _deal_ended(self, event: DealEnded) -> None:
        points = ", ".join(f"{self._name(s)} {p}" for s, p in enumerate(event.points))
        total = self.view.options.lives if self.view else max(event.lives)
        counters = " ".join(self.glyphs.counters(n, total) for n in event.lives)
        self._say(f"{name_seats(event.reason, self._name)}. Points: {points}. "
                  f"Counters: {counters}. Audit: {event.audit}.")
