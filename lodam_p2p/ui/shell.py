"""The one client shell both games run in: a person's screen, keyboard and matches.

The shell owns what no game changes: the prompt_toolkit application
(:class:`~lodam_p2p.ui.app.TableApp`), the matches and "play again"
(:class:`~lodam_p2p.ui.matches.Matches`), leaving, and the line a table that stopped
leaves on the screen. A game brings a :class:`Presenter`: a factory of the
:class:`TableScreen` of one match (its model, the seat that a table driver talks to, what
its keys do, how it is drawn) with its own colours. Lodam's presenter is
:class:`~lodam_p2p.ui.lodam.client.LodamScreen`, Lorum's
:class:`~lodam_p2p.ui.lorum.client.LorumScreen`.

:meth:`Shell.run` starts a match through ``start_match`` (which seats the screen's
player with the bots, through the local table or the network session) and runs the
screen until the person leaves. Whatever goes wrong at the table closes the screen
(:class:`~lodam_p2p.ui.matches.TableStopped`, which the command turns into one line) and
leaves a traceback in the log file.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from lodam_p2p.player import Player
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.ui.app import TableApp
from lodam_p2p.ui.canvas import Canvas
from lodam_p2p.ui.matches import Matches

#: Starts one match with the person seated (the screen's player); returns how it ended.
StartMatch = Callable[[Any], Coroutine[Any, Any, MatchOutcome]]


@dataclass(slots=True)
class ShellSettings:
    """How the screen looks and what it may use."""

    table: str = "local"
    ascii: bool = False
    no_color: bool = False
    hint: Callable[[Any], Any] | None = None  #: the game's view → the action ``h`` shows
    #: Longest wait for the person at the end of a deal (a timed, networked table).
    hold_limit: float | None = None
    hosted: tuple[str, ...] = ()  #: bot seats played from here for a table with others
    input: Input | None = None  #: for tests: a pipe input
    output: Output | None = None  #: for tests: a dummy output
    clock: Callable[[], float] = field(default=time.monotonic)


class ScreenPlayer(Player, Protocol):
    """The person's seat as the shell sees it: a player that holds at the end of a
    deal and says when the screen must be redrawn."""

    hold: asyncio.Event
    changed: Callable[[], None]


class TableScreen(Protocol):
    """One match on a game's screen: the model, the seat, the keys and the drawing."""

    @property
    def model(self) -> Any:
        """What the screen shows, as plain data (the game's model)."""

    @property
    def player(self) -> ScreenPlayer:
        """The seat the table driver talks to."""

    def key(self, name: str) -> None:
        """One key, by name (``"left"``, ``"enter"`` …) or as its character."""

    def interrupt(self) -> None:
        """Ctrl-C: leave, or ask first."""

    def draw(self, width: int, height: int, now: float) -> Canvas:
        """The whole screen at this size: a pure function of the model and ``now``."""

    def stopped(self, text: str) -> None:
        """Show that the table stopped (``text`` says why and how to leave)."""

    def again(self) -> TableScreen:
        """The screen of the next match with the same seats ("play again")."""


class Presenter(Protocol):
    """What a game brings to the shell: its screen for a match, and its colours."""

    #: The game's own style classes, added after the shell's (its suits' colours …).
    style_rules: list[tuple[str, str]]

    def __call__(self, settings: ShellSettings, *, leave: Callable[[], None],
                 play_again: Callable[[], None]) -> TableScreen:
        """A fresh screen; its keys call ``leave`` and ``play_again``."""
        ...


class Shell:
    """One person's session at a table of any game; see the module docstring."""

    def __init__(self, start_match: StartMatch, settings: ShellSettings,
                 presenter: Presenter) -> None:
        self.start_match = start_match
        self.settings = settings
        self.matches = Matches(start_match, self._stopped)
        self.outcomes = self.matches.outcomes
        self.screen = presenter(settings, leave=self.leave, play_again=self.play_again)
        self.app = TableApp(self, self.draw, no_color=settings.no_color,
                            input=settings.input, output=settings.output,
                            clock=settings.clock, style_rules=presenter.style_rules)
        self.screen.player.changed = self.app.invalidate

    @property
    def model(self) -> Any:
        """The model of the match on the screen."""
        return self.screen.model

    @property
    def player(self) -> ScreenPlayer:
        """The person's seat in the match on the screen."""
        return self.screen.player

    # -- the screen ---------------------------------------------------------------------

    def draw(self, width: int, height: int, now: float) -> Canvas:
        """The screen at this size."""
        return self.screen.draw(width, height, now)

    def key(self, name: str) -> None:
        """A key from the application."""
        self.screen.key(name)
        self.app.invalidate()

    def interrupt(self) -> None:
        """Ctrl-C from the application."""
        self.screen.interrupt()
        self.app.invalidate()

    def leave(self) -> None:
        """The person leaves the table."""
        self.app.exit()

    def play_again(self) -> None:
        """A new match with the same seats (once the last one has finished: its end is
        on the screen while its session still lingers for the others)."""
        self.matches.then(self._again)

    def _again(self) -> None:
        if self.matches.under_way:
            return
        self.screen = self.screen.again()
        self.screen.player.changed = self.app.invalidate
        self.matches.begin(self.screen.player)
        self.app.invalidate()

    # -- the match ----------------------------------------------------------------------

    async def run(self) -> list[MatchOutcome]:
        """Play until the person leaves; the outcomes of the matches finished."""
        return await self.matches.around(self.screen.player, self.app.run())

    def _stopped(self, err: BaseException) -> None:
        self.screen.stopped(f"The table stopped: {err or type(err).__name__}. "
                            "Press q to leave.")
        self.app.invalidate()


__all__ = ["Presenter", "ScreenPlayer", "Shell", "ShellSettings", "StartMatch", "TableScreen"]
