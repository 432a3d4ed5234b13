"""The progress bar: drawn on a terminal only, and what it says."""

from __future__ import annotations

import io

from lodam_p2p.arena.progress import ProgressBar, render


def test_render_shows_done_total_rate_and_eta() -> None:
    text = render(25, 100, 5.0)
    assert text.startswith("[" + "#" * 8 + "." * 22 + "]")
    assert " 25/100 matches" in text and "5.0/s" in text and "eta 15s" in text


def test_off_a_terminal_a_short_run_is_silent() -> None:
    stream = io.StringIO()
    now = [0.0]
    bar = ProgressBar(stream, clock=lambda: now[0])
    bar(1, 2)
    now[0] = 4.9
    bar(2, 2)
    bar.close()
    assert stream.getvalue() == ""


def test_off_a_terminal_a_long_run_writes_a_plain_line_every_few_seconds() -> None:
    stream = io.StringIO()
    now = [0.0]
    bar = ProgressBar(stream, clock=lambda: now[0], every_s=5.0)
    for done, at in ((10, 2.0), (20, 5.0), (30, 7.0), (40, 10.0)):
        now[0] = at
        bar(done, 100)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert [text.split()[1] for text in lines] == ["20/100", "40/100"]
    assert all(text.startswith("arena: ") and "\r" not in text for text in lines)
    assert "4.0/s" in lines[0] and "eta 20s" in lines[0]


def test_forced_bar_draws_and_ends_its_line() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream, force=True)
    bar(2, 2)
    bar.close()
    assert stream.getvalue().startswith("\r[") and stream.getvalue().endswith("\n")
