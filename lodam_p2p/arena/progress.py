"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``[#####.....]  412/1000 matches  37.1/s  eta 16s`` redrawn in place.

    Silent when ``stream`` is not a terminal (pipes, files, CI logs), so ``--json``
    output and logs stay clean. Redraws at most ten times a second.
    """

    WIDTH = 30

    def __init__(self, stream: TextIO | None = None, *, force: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = force or self.stream.isatty()
        self.started = time.monotonic()
        self._drawn_at = 0.0
        self._shown = False

    def __call__(self, done: int, total: int) -> None:
        """Show ``done`` of ``total`` matches."""
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._drawn_at < 0.1:
            return
        self._drawn_at = now
        self.stream.write("\r" + render(done, total, now - self.started))
        self.stream.flush()
        self._shown = True

    def close(self) -> None:
        """End the line the bar was drawn on."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


def render(done: int, total: int, seconds: float) -> str:
    """The text of the bar for ``done`` of ``total`` after ``seconds``."""
    share = done / total if total else 1.0
    filled = round(ProgressBar.WIDTH * share)
    rate = done / seconds if seconds > 0 else 0.0
    eta = (total - done) / rate if rate > 0 else 0.0
    bar = "#" * filled + "." * (ProgressBar.WIDTH - filled)
    return f"[{bar}] {done:>{len(str(total))}}/{total} matches  {rate:.1f}/s  eta {eta:.0f}s "
