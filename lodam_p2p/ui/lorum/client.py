"""A person at a Lorum table: Lorum's presenter in the shared client shell.

:class:`LorumScreen` is what Lorum brings to the shell (:mod:`lodam_p2p.ui.shell`): the
model (:class:`~lodam_p2p.ui.lorum.model.LorumTable`), the seat a table driver talks to
(:class:`~lodam_p2p.ui.lorum.player.LorumPlayer`), the keys
(:class:`~lodam_p2p.ui.lorum.keys.LorumKeys`), the screen
(:func:`~lodam_p2p.ui.lorum.view.render_lorum`) and the German pack's colours.
:func:`run_lorum` runs the shell with it until the person leaves; "play again" starts a
match on a fresh screen. Whatever goes wrong at the table closes the screen
(:class:`~lodam_p2p.ui.matches.TableStopped`, which the command turns into one line) and
leaves a traceback in the log file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.ui.canvas import Canvas
from lodam_p2p.ui.german import SUIT_STYLE_RULES
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lorum.keys import LorumKeys
from lodam_p2p.ui.lorum.model import LorumPanel, LorumTable
from lodam_p2p.ui.lorum.player import LorumPlayer
from lodam_p2p.ui.lorum.view import render_lorum
from lodam_p2p.ui.shell import Shell, ShellSettings, StartMatch

#: Starts one match with the person seated; returns how it ended.
StartLorum = StartMatch


@dataclass(slots=True)
class LorumSettings(ShellSettings):
    """How the Lorum screen looks and what it may use (the shell's settings; a table
    with no name is an offline one)."""

    table: str = "offline"


class LorumScreen:
    """One Lorum match on the screen: the shell's :class:`~lodam_p2p.ui.shell.TableScreen`."""

    #: The German suits' colours.
    style_rules: ClassVar[list[tuple[str, str]]] = SUIT_STYLE_RULES

    def __init__(self, settings: ShellSettings, *, leave: Callable[[], None],
                 play_again: Callable[[], None]) -> None:
        self.settings, self.leave, self.play_again = settings, leave, play_again
        self.model = LorumTable(glyphs=Glyphs(ascii=settings.ascii), table=settings.table,
                                hosted=settings.hosted)
        self.player = LorumPlayer(self.model, hold_limit=settings.hold_limit,
                                  clock=settings.clock)
        self.keys = LorumKeys(self.model, answer=self.player.answer, leave=leave,
                              play_again=play_again, hint=settings.hint)

    def key(self, name: str) -> None:
        """One key; with no panel left open, the person's hold is released."""
        self.keys.key(name)
        if self.model.panel is LorumPanel.NONE:
            self.player.release()

    def interrupt(self) -> None:
        """Ctrl-C: leave at once — or, with bot seats played from here, ask first."""
        self.keys.interrupt()

    def draw(self, width: int, height: int, now: float) -> Canvas:
        """The Lorum table at this size."""
        return render_lorum(self.model, width, height, now)

    def stopped(self, text: str) -> None:
        """The table stopped: the status line says so."""
        self.model.status = text

    def again(self) -> LorumScreen:
        """A fresh screen for the next match."""
        return LorumScreen(self.settings, leave=self.leave, play_again=self.play_again)


class LorumClient(Shell):
    """One person's session at a Lorum table: the shell with :class:`LorumScreen`."""

    def __init__(self, start_match: StartMatch, settings: ShellSettings) -> None:
        super().__init__(start_match, settings, LorumScreen)


async def run_lorum(start_match: StartMatch, settings: ShellSettings) -> list[MatchOutcome]:
    """Run the Lorum table screen until the person leaves (see :class:`LorumClient`)."""
    return await LorumClient(start_match, settings).run()


__all__ = ["LorumClient", "LorumScreen", "LorumSettings", "StartLorum", "run_lorum"]
