"""A headless spectator: a table of bots told as a plain-text log.

``lodam play --bots-only`` seats bots only; a game's story log wraps one of them (it
passes everything on) and writes what that seat hears to a stream, one line at a time,
in the same sentences as the screen's log — but never what only that seat knows (its
own exchange cards), since the spectator is not that seat.

:class:`StoryLog` is what every game's log shares (the wrapping, the names, the end of
the match); :class:`~lodam_p2p.ui.lodam.spectator.SpectatorLog` tells Losing Lodam, and
:class:`~lodam_p2p.ui.lorum.spectator.LorumSpectatorLog` Lorum.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable
from typing import Any, TextIO

from lodam_p2p.player import (
    DealEnded,
    MatchEnded,
    Notice,
    Player,
    SeatsChanged,
    TableEvent,
    ViewChanged,
)
from lodam_p2p.ui.glyphs import Glyphs, name_seats, names_said, shown_name
from lodam_p2p.ui.seat_model import TableEvents

#: A seat number no one has: the spectator speaks of every seat in the third person.
NOBODY = -1


class StoryLog(TableEvents):
    """Wraps ``inner`` (a bot) and writes the public story of the table to ``out``; a
    game's log says what a view and the end of a deal tell."""

    def __init__(self, inner: Player, out: TextIO, glyphs: Glyphs | None = None) -> None:
        self.inner = inner
        self.out = out
        self.glyphs = glyphs or Glyphs()
        self.names: list[str] = []
        self.deals = 0
        self.new_deal = True
        self.view: Any = None  #: the last view told (the game's PlayerView)
        #: Whether the reader went away (a closed pipe, ``| head``): nothing is written
        #: any more, and ``on_gone`` is called once, to end the match.
        self.gone = False
        self.on_gone: Callable[[], object] | None = None

    def notify(self, event: TableEvent) -> None:
        """Pass ``event`` on, and write it down."""
        self.inner.notify(event)
        self.take(event)

    def seats_changed(self, event: SeatsChanged) -> None:
        """Keep the seats' names."""
        self.names = [shown_name(info.name) for info in event.seats]

    def view_changed(self, event: ViewChanged, now: float) -> None:
        """Tell what changed."""
        self._view(event.view, event.last_action, event.deal)

    def deal_ended(self, event: DealEnded) -> None:
        """Tell how the deal ended; the next view opens a new one."""
        self.new_deal = True
        self._deal_ended(event)

    def match_ended(self, event: MatchEnded) -> None:
        """Tell why the match ended early, and who won."""
        if event.reason:
            text = name_seats(event.reason, self._name)
            self._say(text[:1].upper() + text[1:] + ".")
        winners = " and ".join(self._name(s) for s in event.winners)
        self._say(f"Match over after {event.deals} deals: {winners} "
                  f"win{'s' if len(event.winners) == 1 else ''}.")

    def notice_given(self, event: Notice) -> None:
        """Write the notice, its seats named."""
        self._say(f"[{event.level.value}] {names_said(event.text, self.names)}")

    async def decide(self, view: Any) -> Any:
        """The wrapped player decides."""
        return await self.inner.decide(view)

    def _view(self, view: Any, action: Any, told: int = 0) -> None:
        """Tell what ``view`` shows that the last one did not, or the deal it opens
        (numbered ``told``, the table's number, when the table says it)."""
        if self.new_deal or self.view is None or (told and told != self.deals):
            self.deals, self.new_deal = told or self.deals + 1, False
            lines = self._new_deal(self.deals, view)
        else:
            lines = self._changes(self.view, view, action)
        for _, text in lines:
            self._say(text)
        self.view = view

    def _new_deal(self, number: int, view: Any) -> list[tuple[str, str]]:
        """The game's log lines for deal ``number`` beginning at ``view``."""
        raise NotImplementedError

    def _changes(self, old: Any, new: Any, action: Any) -> list[tuple[str, str]]:
        """The game's log lines for what changed from ``old`` to ``new``."""
        raise NotImplementedError

    def _deal_ended(self, event: DealEnded) -> None:
        """Tell how the deal ended."""
        raise NotImplementedError

    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def _say(self, text: str) -> None:
        if self.gone:
            return
        try:
            print(text, file=self.out, flush=True)
        except BrokenPipeError:
            self._reader_gone()

    def _reader_gone(self) -> None:
        """The pipe is closed: point the stream at /dev/null (so that nothing written
        later, nor the flush at exit, meets the closed pipe again) and say so once."""
        self.gone = True
        with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.out.fileno())
            os.close(null)
        if self.on_gone is not None:
            self.on_gone()
