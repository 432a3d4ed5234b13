"""A person at a Lorum table: the Lorum screen, the keyboard and a table driver in one
event loop.

:class:`LorumClient` is the Lorum twin of :class:`~lodam_p2p.ui.client.Client`: it starts
a match through ``start_match`` — which seats the given
:class:`~lodam_p2p.ui.lorum.player.LorumPlayer` with the bots, through the local table
(:func:`~lodam_p2p.local.play_local`) or the network session — and runs the screen
(:func:`~lodam_p2p.ui.lorum.view.render_lorum`, keys by
:class:`~lodam_p2p.ui.lorum.keys.LorumKeys`) until the person leaves. "Play again" starts
``start_match`` once more, with a fresh screen. Whatever goes wrong at the table closes
the screen (:class:`~lodam_p2p.ui.matches.TableStopped`, which the command turns into
one line) and leaves a traceback in the log file.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from lodam_p2p.games.lorum import Action, PlayerView
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.ui.app import TableApp
from lodam_p2p.ui.canvas import Canvas
from lodam_p2p.ui.german import SUIT_STYLE_RULES
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lorum.keys import LorumKeys
from lodam_p2p.ui.lorum.model import LorumPanel, LorumTable
from lodam_p2p.ui.lorum.player import LorumPlayer
from lodam_p2p.ui.lorum.view import render_lorum
from lodam_p2p.ui.matches import Matches

#: Starts one match with the person seated; returns how it ended.
StartLorum = Callable[[LorumPlayer], Coroutine[Any, Any, MatchOutcome]]


@dataclass(slots=True)
class LorumSettings:
    """How the screen looks and what it may use."""

    table: str = "offline"
    ascii: bool = False
    no_color: bool = False
    hint: Callable[[PlayerView], Action] | None = None
    #: Longest wait for the person at the end of a deal (a timed, networked table).
    hold_limit: float | None = None
    hosted: tuple[str, ...] = ()  #: bot seats played from here for a table with others
    input: Input | None = None  #: for tests: a pipe input
    output: Output | None = None  #: for tests: a dummy output
    clock: Callable[[], float] = field(default=time.monotonic)


class LorumClient:
    """One person's session at a Lorum table; see the module docstring."""

    def __init__(self, start_match: StartLorum, settings: LorumSettings) -> None:
        self.start_match = start_match
        self.settings = settings
        self.matches = Matches(start_match, self._stopped)
        self.outcomes = self.matches.outcomes
        self.model, self.keys, self.player = self._fresh_table()
        self.app = TableApp(None, self, no_color=settings.no_color, input=settings.input,
                            output=settings.output, clock=settings.clock, draw=self.draw,
                            style_rules=SUIT_STYLE_RULES)
        self.player.changed = self.app.invalidate

    def _fresh_table(self) -> tuple[LorumTable, LorumKeys, LorumPlayer]:
        s = self.settings
        model = LorumTable(glyphs=Glyphs(ascii=s.ascii), table=s.table, hosted=s.hosted)
        player = LorumPlayer(model, hold_limit=s.hold_limit, clock=s.clock)
        keys = LorumKeys(model, answer=player.answer, leave=self.leave,
                         play_again=self.play_again, hint=s.hint)
        return model, keys, player

    # -- the screen ---------------------------------------------------------------------

    def draw(self, width: int, height: int, now: float) -> Canvas:
        """The Lorum screen at this size."""
        return render_lorum(self.model, width, height, now)

    def key(self, name: str) -> None:
        """A key from the application."""
        self.keys.key(name)
        if self.model.panel is LorumPanel.NONE:
            self.player.release()
        self.app.invalidate()

    def interrupt(self) -> None:
        """Ctrl-C: leave at once — or, with bot seats played from here, ask first."""
        if self.model.hosted and self.model.panel is not LorumPanel.QUIT:
            self.keys.key("q")
            self.app.invalidate()
        else:
            self.leave()

    def leave(self) -> None:
        """The person leaves the table."""
        self.app.exit()

    def play_again(self) -> None:
        """A new match with the same seats, on a fresh screen."""
        if self.matches.under_way:
            return
        self.model, self.keys, self.player = self._fresh_table()
        self.player.changed = self.app.invalidate
        self.matches.begin(self.player)
        self.app.invalidate()

    # -- the match ----------------------------------------------------------------------

    async def run(self) -> list[MatchOutcome]:
        """Play until the person leaves; the outcomes of the matches finished."""
        return await self.matches.around(self.player, self.app.run())

    def _stopped(self, err: BaseException) -> None:
        self.model.status = f"The table stopped: {err or type(err).__name__}. Press q to leave."
        self.app.invalidate()


async def run_lorum(start_match: StartLorum, settings: LorumSettings) -> list[MatchOutcome]:
    """Run the Lorum table screen until the person leaves (see :class:`LorumClient`)."""
    return await LorumClient(start_match, settings).run()
