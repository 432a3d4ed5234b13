"""A headless spectator of a Lorum table: ``lodam play --game lorum --bots-only``.

It wraps one bot's seat (:class:`~lodam_p2p.ui.spectator.StoryLog`) and writes the deal
as the Lorum screen's log tells it (:class:`~lodam_p2p.ui.lorum.narrate.LorumNarrator`),
every seat in the third person. A Lorum view shows only what is public once it happens,
apart from the seat's own hand, which this log never writes.
"""

from __future__ import annotations

from lodam_p2p.games.lorum import Action, PlayerView
from lodam_p2p.player import DealEnded
from lodam_p2p.ui.glyphs import name_seats
from lodam_p2p.ui.lorum.narrate import LorumNarrator
from lodam_p2p.ui.narration import LogLine
from lodam_p2p.ui.spectator import NOBODY, StoryLog


class LorumSpectatorLog(StoryLog):
    """The story of a Lorum table, one line at a time."""

    def _narrator(self) -> LorumNarrator:
        return LorumNarrator(self.names, NOBODY, self.glyphs)

    def _new_deal(self, number: int, view: PlayerView) -> list[LogLine]:
        return self._narrator().new_deal(number, view)

    def _changes(self, old: PlayerView, new: PlayerView, action: Action | None
                 ) -> list[LogLine]:
        return self._narrator().changes(old, new)

    def _deal_ended(self, event: DealEnded) -> None:
        totals = ", ".join(f"{self._name(s)} {t}" for s, t in enumerate(event.lives))
        if event.reason:  # the game's sentence names each seat's points
            said = name_seats(event.reason, self._name).rstrip(".")
        else:
            said = "Points: " + ", ".join(f"{self._name(s)} {p}"
                                          for s, p in enumerate(event.points))
        void = " The deal does not count: it is dealt again." if event.void else ""
        self._say(f"{said}. Totals: {totals}. Audit: {event.audit}.{void}")
