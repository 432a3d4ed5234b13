"""A person at a Losing Lodam table: Lodam's presenter in the shared client shell.

:class:`LodamScreen` is what Lodam brings to the shell (:mod:`lodam_p2p.ui.shell`): the
model (:class:`~lodam_p2p.ui.lodam.model.TableModel`), the seat a table driver talks to
(:class:`~lodam_p2p.ui.lodam.player.TerminalPlayer`), the keys
(:class:`~lodam_p2p.ui.lodam.controller.Controller`) and the screen
(:func:`~lodam_p2p.ui.lodam.table_view.render`). :func:`run_client` runs the shell with it
until the person leaves; "play again" keeps the screen and starts a fresh match on it.
A table that stops with an error closes the screen; the command then says in one line
what failed (:class:`~lodam_p2p.ui.matches.TableStopped`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from lodam_p2p.player import Notice, NoticeLevel
from lodam_p2p.tableplan import MatchOutcome
from lodam_p2p.ui.canvas import Canvas
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lodam.controller import Controller
from lodam_p2p.ui.lodam.model import Panel, TableModel
from lodam_p2p.ui.lodam.player import TerminalPlayer
from lodam_p2p.ui.lodam.table_view import render
from lodam_p2p.ui.shell import Shell, ShellSettings, StartMatch

#: How the Lodam screen looks and what it may use (the shell's settings).
ClientOptions = ShellSettings


class LodamScreen:
    """One Lodam match on the screen: the shell's :class:`~lodam_p2p.ui.shell.TableScreen`."""

    #: Lodam's colours are the shell's own.
    style_rules: ClassVar[list[tuple[str, str]]] = []

    def __init__(self, settings: ShellSettings, *, leave: Callable[[], None],
                 play_again: Callable[[], None]) -> None:
        self.model = TableModel(glyphs=Glyphs(ascii=settings.ascii), table=settings.table,
                                hosted=settings.hosted)
        self.player = TerminalPlayer(self.model, settings.clock)
        self.controller = Controller(
            self.model, answer=self.player.answer, leave=leave, play_again=play_again,
            hint=settings.hint, panel_closed=self.player.panel_closed,
        )

    def key(self, name: str) -> None:
        """One key, to the controller."""
        self.controller.key(name)

    def interrupt(self) -> None:
        """Ctrl-C: leave at once — or, with bot seats played from here, ask first."""
        self.controller.interrupt()

    def draw(self, width: int, height: int, now: float) -> Canvas:
        """The Lodam table at this size."""
        return render(self.model, width, height, now)

    def stopped(self, text: str) -> None:
        """The table stopped: an error line in the log and the status."""
        self.player.notify(Notice(NoticeLevel.ERROR, text))

    def again(self) -> LodamScreen:
        """The same screen, its match reset and the person's hold released."""
        self.model.reset_match()
        self.player.hold.set()
        return self


class Client(Shell):
    """One person's session at a Lodam table: the shell with :class:`LodamScreen`."""

    def __init__(self, start_match: StartMatch, options: ShellSettings) -> None:
        super().__init__(start_match, options, LodamScreen)
        self.options = options


async def run_client(start_match: StartMatch, options: ShellSettings) -> list[MatchOutcome]:
    """Run the Lodam table screen until the person leaves (see :class:`Client`)."""
    return await Client(start_match, options).run()


__all__ = ["Client", "ClientOptions", "LodamScreen", "Panel", "StartMatch", "run_client"]
