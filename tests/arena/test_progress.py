"""The progress bar: drawn on a terminal only, and what it says."""

from __future__ import annotations

import io

from lodam_p2p.arena.progress import ProgressBar, render


def test_render_shows_done_total_rate_and_eta() -> None:
    text = render(25, 100, 5.0)
    assert text.startswith("[" + "#" * 8 + "." * 22 + "]")
    assert " 25/100 matches" in text and "5.0/s" in text and "eta 15s" in text


def test_silent_when_not_a_terminal() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)
    bar(1, 2)
    bar(2, 2)
    bar.close()
    assert stream.getvalue() == ""


def test_forced_bar_draws_and_ends_its_line() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, force=True)
    bar(2, 2)
    bar.close()
    assert stream.getvalue().startswith("\r[") and stream.getvalue().endswith("\n")
