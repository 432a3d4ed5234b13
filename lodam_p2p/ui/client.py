"""A person at a table: the screen, the keyboard and a table driver in one event loop.

:func:`run_client` starts a match through ``start_match`` (which seats the given
:class:`~lodam_p2p.ui.player.TerminalPlayer` with the bots, through the offline driver or
the network session) and runs the screen until the person leaves. "Play again" starts
``start_match`` once more. A table that stops with an error (a broker that refuses or
goes away) leaves a traceback in the log file and closes the screen; the command then
says in one line what failed (:class:`~lodam_p2p.ui.matches.TableStopped`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from lodam_p2p.games.lodam import Action, PlayerView
from lodam_p2p.player import Notice, NoticeLevel
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.ui.app import TableApp
from lodam_p2p.ui.controller import Controller
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.matches import Matches
from lodam_p2p.ui.model import Panel, TableModel
from lodam_p2p.ui.player import TerminalPlayer

#: Starts one match with the person seated; returns how it ended.
StartMatch = Callable[[TerminalPlayer], Coroutine[Any, Any, MatchOutcome]]


@dataclass(slots=True)
class ClientOptions:
    """How the screen looks and what it may use."""

    table: str = "local"
    ascii: bool = False
    no_color: bool = False
    hint: Callable[[PlayerView], Action] | None = None
    hosted: tuple[str, ...] = ()  #: bot seats played from here for a table with others
    input: Input | None = None  #: for tests: a pipe input
    output: Output | None = None  #: for tests: a dummy output
    clock: Callable[[], float] = field(default=time.monotonic)


class Client:
    """One person's session at the table; see the module docstring."""

    def __init__(self, start_match: StartMatch, options: ClientOptions) -> None:
        self.start_match = start_match
        self.options = options
        self.model = TableModel(glyphs=Glyphs(ascii=options.ascii), table=options.table,
                                hosted=options.hosted)
        self.player = TerminalPlayer(self.model, options.clock)
        self.controller = Controller(
            self.model, answer=self.player.answer, leave=self.leave,
            play_again=self.play_again, hint=options.hint,
            panel_closed=self.player.panel_closed,
        )
        self.app = TableApp(self.model, self.controller, no_color=options.no_color,
                            input=options.input, output=options.output, clock=options.clock)
        self.player.changed = self.app.invalidate
        self.matches = Matches(start_match, self._stopped)
        self.outcomes = self.matches.outcomes

    async def run(self) -> list[MatchOutcome]:
        """Play until the person leaves; the outcomes of the matches finished."""
        return await self.matches.around(self.player, self.app.run())

    def _stopped(self, err: BaseException) -> None:
        self.player.notify(Notice(NoticeLevel.ERROR,
                                  f"The table stopped: {err or type(err).__name__}. "
                                  "Press q to leave."))

    def leave(self) -> None:
        """The person leaves the table."""
        self.app.exit()

    def play_again(self) -> None:
        """Start a new match with the same seats."""
        if self.matches.under_way:
            return
        self.model.reset_match()
        self.player.hold.set()
        self.matches.begin(self.player)
        self.app.invalidate()


async def run_client(start_match: StartMatch, options: ClientOptions) -> list[MatchOutcome]:
    """Run the table screen until the person leaves (see :class:`Client`)."""
    return await Client(start_match, options).run()


__all__ = ["Client", "ClientOptions", "Panel", "StartMatch", "run_client"]
