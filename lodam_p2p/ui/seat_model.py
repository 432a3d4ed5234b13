"""What every game's screen keeps of its table, and how it takes in the table's events.

A table driver tells a seat six kinds of event (:mod:`lodam_p2p.player`). The shell
sorts them once: :class:`TableEvents` hands each to the method named for its kind, and
:class:`SeatModel` — the base of every game's screen model — takes in the three that
mean the same in every game (who sits where, what the table is doing, a notice) into
fields every screen draws the same way (the waiting room, the status line, the log). A
game's model states only what a view, the end of a deal and the end of the match mean
for its own screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from lodam_p2p.player import (
    DealEnded,
    MatchEnded,
    Notice,
    Progress,
    SeatInfo,
    SeatsChanged,
    TableEvent,
    ViewChanged,
)
from lodam_p2p.ui.glyphs import Glyphs, names_said

#: Log lines a screen keeps (it shows the last few; the file log keeps everything).
LOG_LIMIT = 500
#: One line of a screen's log: its style class and its text.
LogLine = tuple[str, str]


class TableEvents:
    """Takes in the table's events one kind at a time: :meth:`take` calls the method
    named for the event's kind, each of which does nothing unless a subclass says."""

    __slots__ = ()

    def take(self, event: TableEvent, now: float = 0.0) -> None:
        """Take in ``event``, told at ``now`` (the screen's clock)."""
        if isinstance(event, ViewChanged):
            self.view_changed(event, now)
        elif isinstance(event, SeatsChanged):
            self.seats_changed(event)
        elif isinstance(event, Progress):
            self.progress_changed(event)
        elif isinstance(event, DealEnded):
            self.deal_ended(event)
        elif isinstance(event, MatchEnded):
            self.match_ended(event)
        elif isinstance(event, Notice):
            self.notice_given(event)

    def view_changed(self, event: ViewChanged, now: float) -> None:
        """The seat's view changed (anyone's action, or a new deal)."""

    def seats_changed(self, event: SeatsChanged) -> None:
        """Who sits where changed."""

    def progress_changed(self, event: Progress) -> None:
        """The table moved to another phase, or waits for other seats."""

    def deal_ended(self, event: DealEnded) -> None:
        """A deal was scored (or voided)."""

    def match_ended(self, event: MatchEnded) -> None:
        """The match is over."""

    def notice_given(self, event: Notice) -> None:
        """The table says something to the person."""


@dataclass(slots=True)
class SeatModel(TableEvents):
    """The fields of a screen's model that every game fills the same way (see the module
    docstring); a game's model adds its view, its panels and its prompt."""

    glyphs: Glyphs = field(default_factory=Glyphs)
    table: str = "local"
    me: int = 0
    seats: tuple[SeatInfo, ...] = ()  #: who sits where (the waiting room lists them)
    wanted: int = 0  #: before the start: seats the table has
    progress: Progress | None = None  #: what the table does now, as it last said
    notice: Notice | None = None  #: the latest notice (where others join …)
    #: bot seats this process plays at a table with others (leaving ends them)
    hosted: tuple[str, ...] = ()
    status: str = ""  #: the one-line message under the prompt (refusals, hints)
    log: list[LogLine] = field(default_factory=list)
    between_deals: bool = True  #: the next view opens a new deal

    def seats_changed(self, event: SeatsChanged) -> None:
        """Keep the seats in seat order, this seat's number, and the table's size."""
        self.seats = tuple(sorted(event.seats, key=lambda info: info.seat))
        self.me, self.wanted = event.me, event.wanted or len(event.seats)
        self.seated()

    def seated(self) -> None:
        """The seats changed: a game keeps what it derives from them."""

    def progress_changed(self, event: Progress) -> None:
        """Keep what the table does now."""
        self.progress = event

    def notice_given(self, event: Notice) -> None:
        """Keep the notice and log it, with the seats the table numbers named."""
        event = replace(event, text=names_said(event.text, self.seat_names()))
        self.notice = event
        self.add_log(f"class:log.{event.level.value}", event.text)

    def seat_names(self) -> list[str]:
        """Every seat's name as the log says it (a game may name this seat "you")."""
        return [info.name for info in self.seats]

    def add_log(self, style: str, text: str) -> None:
        """Append a line to the log (the oldest go past :data:`LOG_LIMIT`)."""
        self.log.append((style, text))
        self.trim_log()

    def trim_log(self) -> None:
        """Forget the lines past :data:`LOG_LIMIT`."""
        if len(self.log) > LOG_LIMIT:
            del self.log[: len(self.log) - LOG_LIMIT]


__all__ = ["LOG_LIMIT", "LogLine", "SeatModel", "TableEvents"]
