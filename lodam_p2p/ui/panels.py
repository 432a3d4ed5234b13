"""What every game's panels share: the frame over the table, the rows of keys, and the
question before leaving.

A game's panels (:mod:`lodam_p2p.ui.lodam.panels`, :mod:`lodam_p2p.ui.lorum.panels`)
choose what a panel says and where it stands; the frame is drawn, the keys are listed
and "Leave the table?" is asked the same way at every table.
"""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.ui.canvas import Canvas, Frags
from lodam_p2p.ui.glyphs import Glyphs
from lodam_p2p.ui.waiting import hosted_warning


def draw_framed(canvas: Canvas, glyphs: Glyphs, lines: Sequence[Frags], *, top: int,
                left: int, inner: int, rows: int, room: int) -> None:
    """A panel ``rows`` high and ``inner + 2`` wide at (``top``, ``left``): its ground,
    its border, and as many of ``lines`` as fit inside, each cut to ``room`` columns."""
    canvas.fill(top, left, inner + 2, rows, "class:panel")
    glyphs.draw_box(canvas, top=top, left=left, width=inner + 2, height=rows,
                    style="class:panel.border")
    for i, line in enumerate(lines[: rows - 2]):
        canvas.put(top + 1 + i, left + 2, line, room)


def key_rows(keys: Sequence[tuple[str, str]]) -> list[Frags]:
    """One row per key (or word) and what it does, the keys in a column of their own."""
    return [[("class:panel.key", f"{key:<14}"), ("", what)] for key, what in keys]


def leave_question(hosted: Sequence[str]) -> list[Frags]:
    """The "Leave the table?" panel, with what leaving does to the bot seats ``hosted``
    (played from here at a table with others)."""
    return [[("class:panel.title", "Leave the table?")], [], *hosted_warning(hosted),
            [("", "y: leave    n or Esc: stay")]]


__all__ = ["draw_framed", "key_rows", "leave_question"]
