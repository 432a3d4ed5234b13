"""The full-screen prompt_toolkit application around the table screen.

One window whose content is the game's screen drawn at the terminal's current size (so a
resize simply redraws), keys passed by name to the shell
(:class:`~lodam_p2p.ui.shell.Shell`), and a style that maps the renderer's classes to
colours — or, under ``NO_COLOR`` (https://no-color.org), to bold, underline
and reverse only. The application runs in the same event loop as the table driver.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Protocol, cast

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.styles import Style

from lodam_p2p.ui.canvas import Canvas, Frags

#: Style class → prompt_toolkit style; later rules win where classes combine.
STYLE_RULES: list[tuple[str, str]] = [
    ("header", "bg:#1f4d36 #ffffff bold"),
    ("header.keys", "bg:#1f4d36 #c8d8c8"),
    ("card.black", "bold"),
    ("card.red", "#ff5f5f bold"),
    ("card.winning", "underline"),
    ("choice.legal", "bold"),
    ("choice.dim", "#6c6c6c nobold"),
    ("choice.hint", "underline"),
    ("choice.cursor", "reverse"),
    ("seat.name", "bold"),
    ("seat.acting", "#ffd75f bold"),
    ("seat.pointer", "#ffd75f bold"),
    ("seat.role", "#87afd7"),
    ("counters", "#ff5f5f"),
    ("points", "bold"),
    ("bar", "#5faf5f"),
    ("bar.danger", "#ff5f5f"),
    ("dim", "#808080"),
    ("trump", "#5fd7ff bold"),
    ("trick.title", "bold"),
    ("offer", "#d787ff bold"),
    ("prompt", "#5fd7ff bold"),
    ("status", "#ffd75f"),
    ("notice.info", ""),
    ("notice.warning", "#ffd75f bold"),
    ("notice.error", "bg:#af0000 #ffffff bold"),
    ("log.deal", "bold"),
    ("log.trick", "#87af87"),
    ("log.trump", "#5fd7ff"),
    ("log.info", ""),
    ("log.warning", "#ffd75f"),
    ("log.error", "#ff5f5f bold"),
    ("rule", "#6c6c6c"),
    ("felt", "#2e7d52"),
    ("panel.border", "#5fd7ff"),
    ("panel.title", "bold"),
    ("panel.key", "#ffd75f bold"),
]

#: Seconds prompt_toolkit waits, after an Esc byte, for the rest of an escape sequence
#: (an arrow key arrives as one), and after a key that could start a longer binding. Its
#: defaults (0.5 s and 1 s) made Esc close a panel a second late; a terminal sends a
#: sequence's bytes together, so a few hundredths of a second are plenty.
ESCAPE_WAIT = 0.03
KEY_WAIT = 0.05

#: Style words kept under NO_COLOR.
PLAIN_WORDS = {"bold", "nobold", "underline", "reverse", "italic"}

#: prompt_toolkit key → the controller's key name.
NAMED_KEYS = {
    Keys.Left: "left", Keys.Right: "right", Keys.Up: "up", Keys.Down: "down",
    Keys.Enter: "enter", Keys.Escape: "escape", Keys.Tab: "right", Keys.BackTab: "left",
}


def no_color_wanted() -> bool:
    """Whether the ``NO_COLOR`` convention asks for no colour."""
    return bool(os.environ.get("NO_COLOR"))


def build_style(no_color: bool, extra: list[tuple[str, str]] | None = None) -> Style:
    """The style for the renderer's classes, with or without colour (``extra``: a
    game's own classes, added after the common ones)."""
    rules = STYLE_RULES + (extra or [])
    if not no_color:
        return Style(rules)
    plain = [(name, " ".join(w for w in rule.split() if w in PLAIN_WORDS))
             for name, rule in rules]
    return Style(plain)


class KeyTaker(Protocol):
    """What the application hands keys to (the shell, :class:`~lodam_p2p.ui.shell.Shell`)."""

    def key(self, name: str) -> None:
        """One key, by name or as its character."""

    def interrupt(self) -> None:
        """Ctrl-C."""


#: Draws the whole screen: (width, height, now) → canvas.
Draw = Callable[[int, int, float], Canvas]


class TableApp:
    """The table screen as a prompt_toolkit application."""

    def __init__(self, controller: KeyTaker, draw: Draw, *,
                 no_color: bool = False, input: Input | None = None,
                 output: Output | None = None, clock: Callable[[], float] = time.monotonic,
                 style_rules: list[tuple[str, str]] | None = None) -> None:
        self.controller = controller
        self.clock = clock
        self.draw = draw
        control = FormattedTextControl(self.fragments, focusable=True, show_cursor=False)
        self.app: Application[None] = Application(
            layout=Layout(Window(control, wrap_lines=False, always_hide_cursor=True)),
            key_bindings=self._bindings(),
            style=build_style(no_color, style_rules),
            color_depth=ColorDepth.DEPTH_1_BIT if no_color else None,
            full_screen=True,
            input=input,
            output=output,
        )
        self.app.ttimeoutlen = ESCAPE_WAIT  # Esc reacts at once
        self.app.timeoutlen = KEY_WAIT

    def fragments(self) -> StyleAndTextTuples:
        """The screen at the output's current size."""
        size = self.app.output.get_size()
        frags: Frags = self.draw(size.columns, size.rows, self.clock()).fragments()
        return cast("StyleAndTextTuples", frags)

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        for key, name in NAMED_KEYS.items():
            kb.add(key)(self._sender(name))
        kb.add(Keys.ControlC)(lambda event: self.controller.interrupt())
        kb.add(Keys.Any)(self._typed)
        return kb

    def _sender(self, name: str) -> Callable[[KeyPressEvent], None]:
        def send(event: KeyPressEvent) -> None:
            self.controller.key(name)

        return send

    def _typed(self, event: KeyPressEvent) -> None:
        if len(event.data) == 1 and event.data.isprintable():
            self.controller.key(event.data)

    def invalidate(self) -> None:
        """Redraw soon."""
        self.app.invalidate()

    async def run(self) -> None:
        """Run until :meth:`exit`."""
        await self.app.run_async()

    def exit(self) -> None:
        """Leave the screen (idempotent)."""
        if self.app.is_running and not self.app.future.done():  # type: ignore[union-attr]
            self.app.exit()
