"""The screen of a person whose table is not found yet: what is looked for, Esc leaves.

``lodam join oak`` without ``--broker`` looks for the table by DNS-SD (and then for its
announcement on the broker found) before the table's own screen can open: the game the
table plays decides which screen that is. Meanwhile :func:`look_on_screen` shows the
table looked for, the last line the search said ("waiting for table oak… (DNS-SD on
…)") and how to leave; it returns what the search found, or None when the person left
with Esc (or q, or Ctrl-C), the search then cancelled. A search that fails raises its
error once the screen is closed, for the command to say in one line.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import ColorDepth, Output

from lodam_p2p.ui.app import build_style
from lodam_p2p.ui.waiting import wrap

__all__ = ["LEAVE_HINT", "look_on_screen"]

T = TypeVar("T")
#: A search, told how to say what it is doing (one line at a time).
Search = Callable[[Callable[[str], None]], Coroutine[Any, Any, T]]
#: The screen's last line.
LEAVE_HINT = "Esc leaves"


async def look_on_screen(search: Search[T], *, title: str, no_color: bool = False,
                         input: Input | None = None, output: Output | None = None
                         ) -> T | None:
    """Run ``search`` under a full screen titled ``title`` (see the module docstring)."""
    said = ["looking…"]
    control = FormattedTextControl(lambda: _fragments(app, title, said[-1]),
                                   focusable=True, show_cursor=False)
    keys = KeyBindings()

    def leave(event: KeyPressEvent) -> None:
        if app.future is not None and not app.future.done():
            app.exit(result=False)

    for key in (Keys.Escape, Keys.ControlC, "q"):
        keys.add(key)(leave)
    app: Application[bool] = Application(
        layout=Layout(Window(control, always_hide_cursor=True)), key_bindings=keys,
        style=build_style(no_color), color_depth=ColorDepth.DEPTH_1_BIT if no_color else None,
        full_screen=True, input=input, output=output)

    def say(line: str) -> None:
        said.append(line.removeprefix("lodam: "))
        app.invalidate()

    def found(_task: object = None) -> None:
        if task.done() and app.future is not None and not app.future.done():
            app.exit(result=True)

    task = asyncio.ensure_future(search(say))
    task.add_done_callback(found)
    try:
        finished = await app.run_async(pre_run=found)
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    return task.result() if finished else None


def _fragments(app: Application[bool], title: str, line: str) -> StyleAndTextTuples:
    width = max(20, app.output.get_size().columns - 2)
    frags: StyleAndTextTuples = [("class:trick.title", f" {title}\n\n")]
    for piece in wrap(line, width):
        frags.append(("", f" {piece}\n"))
    frags.append(("class:dim", f"\n {LEAVE_HINT}\n"))
    return frags
