"""The lobby screen as a prompt_toolkit application: look for tables, return a choice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, cast

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth, Output

from lodam_p2p.games import DEFAULT_GAME
from lodam_p2p.ui.app import build_style
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.lobby import LobbyChoice, LobbyModel, LobbyRow, Mode, render_lobby

#: Finds the tables (LAN and broker); may take a few seconds.
FindTables = Callable[[], Coroutine[Any, Any, list[LobbyRow]]]

KEYS = {Keys.Up: "up", Keys.Down: "down", Keys.Enter: "enter", Keys.Escape: "escape",
        Keys.Tab: "tab", Keys.Backspace: "backspace"}


class LobbyApp:
    """Runs the lobby until the person chooses (or leaves: ``None``)."""

    def __init__(self, find: FindTables, *, glyphs: Glyphs | None = None,
                 no_color: bool = False, input: Input | None = None,
                 output: Output | None = None, game: str = DEFAULT_GAME) -> None:
        self.model = LobbyModel(game=game)
        self.find = find
        self.glyphs = glyphs or Glyphs()
        self._search: asyncio.Task[None] | None = None
        control = FormattedTextControl(self._fragments, focusable=True, show_cursor=False)
        self.app: Application[LobbyChoice | None] = Application(
            layout=Layout(Window(control, always_hide_cursor=True)),
            key_bindings=self._bindings(), style=build_style(no_color),
            color_depth=ColorDepth.DEPTH_1_BIT if no_color else None,
            full_screen=True, input=input, output=output)

    def _fragments(self) -> StyleAndTextTuples:
        size = self.app.output.get_size()
        frags = render_lobby(self.model, size.columns, size.rows, self.glyphs).fragments()
        return cast("StyleAndTextTuples", frags)

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        for key, name in KEYS.items():
            kb.add(key)(self._sender(name))
        kb.add(Keys.ControlC)(lambda event: self.app.exit(result=None))
        kb.add(Keys.Any)(self._typed)
        return kb

    def _sender(self, name: str) -> Callable[[KeyPressEvent], None]:
        def send(event: KeyPressEvent) -> None:
            self._key(name)

        return send

    def _typed(self, event: KeyPressEvent) -> None:
        if len(event.data) == 1 and event.data.isprintable():
            self._key(event.data)

    def _key(self, name: str) -> None:
        model = self.model
        if model.mode is Mode.TABLES and name == "q":
            self.app.exit(result=None)
            return
        if model.mode is Mode.TABLES and name == "r":
            self.look()
            return
        model.key(name)
        if model.chosen is not None:
            self.app.exit(result=model.chosen)

    def look(self) -> None:
        """Look for tables again (in the background)."""
        if self._search is None or self._search.done():
            self._search = asyncio.get_running_loop().create_task(self._look())

    async def _look(self) -> None:
        self.model.looking, self.model.status = True, "looking for tables…"
        self.app.invalidate()
        try:
            self.model.rows = await self.find()
            found = len(self.model.rows)
            self.model.status = f"{found} table{'s' if found != 1 else ''} found"
        except Exception as err:  # a broker away, a socket refused: one line, no traceback
            self.model.status = f"could not look for tables: {err}"
        finally:
            self.model.looking = False
            self.model.cursor = min(self.model.cursor, max(0, len(self.model.rows) - 1))
            self.app.invalidate()

    async def run(self) -> LobbyChoice | None:
        """Show the lobby; the person's choice, or ``None`` if they left."""
        self.app.pre_run_callables.append(self.look)
        try:
            return await self.app.run_async()
        finally:
            if self._search is not None:
                self._search.cancel()
