"""Progress of a long arena run on stderr: a bar on a terminal, plain lines elsewhere.

On a terminal a one-line bar is redrawn in place (at most ten times a second). Off a
terminal (a pipe, a file, a CI log) one plain line is written every
:data:`LINE_EVERY_S` seconds, so a long or slow run is never silent and the log stays
readable; a run shorter than that writes nothing. Time comes from an injected clock.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

#: Seconds between two plain progress lines off a terminal.
LINE_EVERY_S = 5.0


class ProgressBar:
    """``[#####.....]  412/1000 matches  37.1/s  eta 16s`` redrawn in place on a
    terminal; ``arena: 412/1000 matches  37.1/s  eta 16s`` every few seconds elsewhere.

    ``force`` draws the bar even off a terminal; ``every_s`` spaces the plain lines.
    """

    WIDTH = 30

    def __init__(self, stream: TextIO | None = None, *, force: bool = False,
                 every_s: float = LINE_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.bar = force or self.stream.isatty()
        self.every_s = every_s
        self.clock = clock
        self.started = clock()
        self._drawn_at = self.started
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        """Show ``done`` of ``total`` matches."""
        now = self.clock()
        if self.bar:
            if done < total and now - self._drawn_at < 0.1:
                return
            self._drawn_at = now
            self.stream.write("\r" + render(done, total, now - self.started))
            self._shown = True
        else:
            if now - self._drawn_at < self.every_s:
                return
            self._drawn_at = now
            self.stream.write("arena: " + line(done, total, now - self.started) + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the line the bar was drawn on."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


def line(done: int, total: int, seconds: float) -> str:
    """``412/1000 matches  37.1/s  eta 16s``."""
    rate = done / seconds if seconds > 0 else 0.0
    eta = (total - done) / rate if rate > 0 else 0.0
    return f"{done:>{len(str(total))}}/{total} matches  {rate:.1f}/s  eta {eta:.0f}s "


def render(done: int, total: int, seconds: float) -> str:
    """The text of the bar for ``done`` of ``total`` after ``seconds``."""
    share = done / total if total else 1.0
    filled = round(ProgressBar.WIDTH * share)
    bar = "#" * filled + "." * (ProgressBar.WIDTH - filled)
    return f"[{bar}] {line(done, total, seconds)}"
