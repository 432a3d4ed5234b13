"""A fixed-size grid of styled characters: what the renderer draws into.

Drawing into a grid of exactly the terminal's size is what keeps the screen clean on any
size: nothing can wrap or spill, whatever is placed beyond the edge is cut off, and the
result converts to prompt_toolkit's ``(style, text)`` fragments or, for tests, to plain
text. Every character the screen uses is one column wide.
"""

from __future__ import annotations

#: Look-alikes of the few non-ASCII characters the screen's words use.
ASCII = {"·": ".", "…": "~", "—": "-", "←": "<", "→": ">", "↑": "^", "↓": "v", "▶": ">",
         "◀": "<", "─": "-", "│": "|", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "▰": "#",
         "▱": ".", "♥": "*", "♡": "-", "♠": "S", "♦": "D", "♣": "C"}

#: Styled text: (style classes, text) pairs, as prompt_toolkit takes them.
Frags = list[tuple[str, str]]


def frag_text(frags: Frags) -> str:
    """The plain text of ``frags``."""
    return "".join(text for _, text in frags)


def frag_width(frags: Frags) -> int:
    """Columns ``frags`` take (one per character)."""
    return sum(len(text) for _, text in frags)


def clip(frags: Frags, width: int) -> Frags:
    """``frags`` cut to ``width`` columns, the last visible character made ``…``."""
    if frag_width(frags) <= width:
        return frags
    out: Frags = []
    left = max(0, width - 1)
    for style, text in frags:
        if left <= 0:
            break
        out.append((style, text[:left]))
        left -= len(text[:left])
    if width > 0:
        out.append(("", "…"))
    return out


class Canvas:
    """``height`` rows of ``width`` styled cells, initially blank."""

    def __init__(self, width: int, height: int) -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells: list[list[tuple[str, str]]] = [
            [("", " ")] * self.width for _ in range(self.height)
        ]

    def put(self, row: int, col: int, frags: Frags, width: int | None = None) -> int:
        """Draw ``frags`` at (``row``, ``col``), at most ``width`` columns (default: to the
        edge); returns the columns drawn."""
        if not 0 <= row < self.height or col >= self.width:
            return 0
        room = self.width - col if width is None else min(width, self.width - col)
        line = self.cells[row]
        drawn = 0
        for style, ch in _chars(clip(frags, room)):
            if col + drawn >= 0:
                line[col + drawn] = (style, ch)
            drawn += 1
        return drawn

    def put_text(self, row: int, col: int, text: str, style: str = "",
                 width: int | None = None) -> int:
        """Draw plain ``text`` in one style."""
        return self.put(row, col, [(style, text)], width)

    def center(self, row: int, frags: Frags, left: int = 0, width: int | None = None) -> None:
        """Draw ``frags`` centred in columns ``left`` … ``left + width``."""
        span = self.width - left if width is None else width
        shown = clip(frags, span)
        self.put(row, left + max(0, (span - frag_width(shown)) // 2), shown, span)

    def fill(self, row: int, col: int, width: int, height: int, style: str = "") -> None:
        """Blank a rectangle (to draw a panel over the table)."""
        for r in range(row, min(self.height, row + height)):
            for c in range(max(0, col), min(self.width, col + width)):
                self.cells[r][c] = (style, " ")

    def to_ascii(self) -> None:
        """Replace every character outside ASCII by a look-alike (``--ascii``)."""
        for line in self.cells:
            for i, (style, ch) in enumerate(line):
                if ord(ch) >= 128:
                    line[i] = (style, ASCII.get(ch, "?"))

    def fragments(self) -> Frags:
        """The grid as fragments, one line per row, runs of one style merged."""
        out: Frags = []
        for i, line in enumerate(self.cells):
            for style, ch in line:
                if out and out[-1][0] == style:
                    out[-1] = (style, out[-1][1] + ch)
                else:
                    out.append((style, ch))
            if i < self.height - 1:
                out.append(("", "\n"))
        return out

    def text(self) -> str:
        """The grid as plain text, trailing blanks kept (each row is ``width`` wide)."""
        return "\n".join("".join(ch for _, ch in line) for line in self.cells)


def _chars(frags: Frags) -> list[tuple[str, str]]:
    return [(style, ch) for style, text in frags for ch in text]
