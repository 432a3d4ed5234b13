"""A short Lorum match played through a real terminal: tmux runs
``lodam play --game lorum --offline`` (and, once, without ``--offline``: the network
session on the embedded broker, dealt by the fair-deal protocol), and whenever the person
is asked, ``h`` (the hint) then Enter answers; Enter closes each end-of-deal panel, until
the round's standings offer "play again".

tmux must be installed (``.ci/run`` installs it); without it the test fails, it does not
skip. The screen is polled; the bounds on polls are only a safety net against a hang.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

from tests.support.tmux import Tmux

LODAM = Path(sys.executable).with_name("lodam")
#: Screens read before giving up (a hang fails the test; it never passes by waiting).
MAX_SCREENS = 4000
#: What the person's prompt line shows while a decision is awaited.
ASKED = "Enter confirm"
#: The status line once the hint is selected.
HINTED = "hint: Enter plays it"


def _until(tmux: Tmux, check, what: str) -> str:
    for _ in range(400):
        screen = tmux.screen()
        if check(screen):
            return screen
        time.sleep(0.05)
    pytest.fail(f"never saw {what}; last screen:\n" + tmux.screen())


def _hint_then_enter(tmux: Tmux) -> None:
    """``h`` until the hint shows (a key sent while the screen still showed the last
    question finds no question yet, and is sent again), then Enter; returns once the
    answer is taken (the hint's line is gone), or when no question is on the screen."""
    for _ in range(100):
        tmux.keys("h")
        for _ in range(20):
            screen = tmux.screen()
            if HINTED in screen:
                tmux.keys("Enter")
                _until(tmux, lambda screen: HINTED not in screen, "the answer taken")
                return
            if ASKED not in screen:
                return  # no question after all: the caller looks again
            time.sleep(0.05)
    pytest.fail("the hint never showed; last screen:\n" + tmux.screen())


#: An SGR sequence; its parameters 30-38, 40-48 and 90-107 set a colour (39 and 49 only
#: go back to the terminal's own).
COLOUR_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def _colours(tmux: Tmux) -> set[str]:
    """The colour parameters of the pane's SGR sequences (``capture-pane -e``)."""
    found = set()
    for params in COLOUR_SGR.findall(tmux.run("capture-pane", "-p", "-e", "-t", tmux.target)):
        for p in params.split(";"):
            if p.isdigit() and p not in ("39", "49") and (
                    30 <= int(p) <= 48 or 90 <= int(p) <= 107):
                found.add(p)
    return found


def _play_round(tmux: Tmux, screens: list[str], table: str = "offline") -> str:
    """Hint and Enter for every decision, Enter after every deal, until "play again";
    every screen seen is kept in ``screens``. Returns the final screen."""
    deal_ends = 0
    seen_quartet = seen_lorum = ""
    for _ in range(MAX_SCREENS):
        screen = tmux.screen()
        screens.append(screen)
        screen = _plain(screen)
        if "Enter: play again" in screen:
            break
        if "Enter: continue" in screen:
            deal_ends += 1
            over = re.search(r"Deal \d+ is over:", screen)
            assert over is not None, screen
            tmux.keys("Enter")
            _until(tmux, lambda s, over=over[0]: over not in s, "the next deal")
        elif ASKED in screen:
            if "Quart - " in screen:
                seen_quartet = seen_quartet or screen
            if "Lorum - " in screen:
                seen_lorum = seen_lorum or screen
            _hint_then_enter(tmux)
        time.sleep(0.05)
    else:
        pytest.fail("the round did not end; last screen:\n" + tmux.screen())
    final = _plain(tmux.screen())
    assert f"Lorum . table {table}" in final
    assert "Moll" in final and "Ned" in final and "Bess" in final
    assert deal_ends >= 1 and "Leave" not in final
    assert "Your lead" in seen_quartet or "goes on the run" in seen_quartet
    assert "You" in seen_lorum and "lay" in seen_lorum.lower()
    return final


def _plain(screen: str) -> str:
    """The screen with the two separators written as ``--ascii`` writes them."""
    return screen.replace("·", ".").replace("—", "-")


def _leave(tmux: Tmux, log: Path) -> None:
    tmux.keys("q")
    _until(tmux, lambda s: "Leave the table?" in s, "leave the table?")
    tmux.keys("y")
    after = _until(tmux, lambda s: "EXIT=" in s, "the exit")
    assert "EXIT=0" in after and "1 match finished" in after
    assert "Traceback" not in after and "Traceback" not in log.read_text()


def _command(log: Path, extra: str = "", env: str = "", where: str = "--offline") -> str:
    return (f"{env}{LODAM} play --game lorum {where} --option contracts=quartet,lorum "
            f"--bot-delay 0 --seed 5 --log-file {log}{extra}; echo EXIT=$?; sleep 60")


@pytest.mark.slow
def test_a_lorum_round_by_hint_and_enter_through_a_real_terminal(tmp_path: Path) -> None:
    log = tmp_path / "lodam.log"
    tmux = Tmux(_command(log), width=80, height=24)
    try:
        screens: list[str] = []
        final = _play_round(tmux, screens)
        assert "▶ You" in final or any("▶ You" in s for s in screens)
        assert any(symbol in s for s in screens for symbol in "▼▲♥●")
        assert _colours(tmux), "colour is on without NO_COLOR"
        _leave(tmux, log)
    finally:
        tmux.close()


@pytest.mark.slow
def test_no_color_and_ascii_play_the_round_in_plain_letters(tmp_path: Path) -> None:
    log = tmp_path / "lodam.log"
    tmux = Tmux(_command(log, " --ascii", "NO_COLOR=1 "), width=80, height=24)
    try:
        screens: list[str] = []
        _play_round(tmux, screens)
        assert all(s.isascii() for s in screens), next(s for s in screens if not s.isascii())
        assert not _colours(tmux), "NO_COLOR still draws in colour"
        _leave(tmux, log)
    finally:
        tmux.close()


@pytest.mark.slow
def test_a_lorum_round_over_the_network_session_by_keyboard(tmp_path: Path) -> None:
    """The same keys at a networked table: the embedded broker, three heuristic bots and
    the fair deal; the round still ends on "play again", and the person leaves cleanly."""
    log = tmp_path / "lodam.log"
    tmux = Tmux(_command(log, where="--table lime"), width=80, height=24)
    try:
        screens: list[str] = []
        _play_round(tmux, screens, table="lime")
        _leave(tmux, log)
    finally:
        tmux.close()
