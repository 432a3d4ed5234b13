"""A short Lorum match played through a real terminal: tmux runs
``lodam play --game lorum --offline``, and whenever the person is asked, ``h`` (the hint)
then Enter answers; Enter closes each end-of-deal panel, until the round's standings
offer "play again".

tmux must be installed (``.ci/run`` installs it); without it the test fails, it does not
skip. The screen is polled; the bounds on polls are only a safety net against a hang.
"""

from __future__ import annotations

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


def _until(tmux: Tmux, text: str) -> str:
    for _ in range(200):
        screen = tmux.screen()
        if text in screen:
            return screen
        time.sleep(0.05)
    pytest.fail(f"never saw {text!r}; last screen:\n" + tmux.screen())


@pytest.mark.slow
def test_a_lorum_round_by_hint_and_enter_through_a_real_terminal(tmp_path: Path) -> None:
    log = tmp_path / "lodam.log"
    command = (f"{LODAM} play --game lorum --offline --option contracts=quartet,lorum "
               f"--bot-delay 0 --seed 5 --log-file {log}; echo EXIT=$?; sleep 60")
    tmux = Tmux(command, width=80, height=24)
    deal_ends = 0
    seen_quartet = seen_lorum = ""
    try:
        for _ in range(MAX_SCREENS):
            screen = tmux.screen()
            if "Enter: play again" in screen:
                break
            if "Enter: continue" in screen:
                deal_ends += 1
                tmux.keys("Enter")
            elif ASKED in screen:
                if "Quart — " in screen:
                    seen_quartet = seen_quartet or screen
                if "Lorum — " in screen:
                    seen_lorum = seen_lorum or screen
                tmux.keys("h")
                _until(tmux, "hint: Enter plays it")
                tmux.keys("Enter")
            time.sleep(0.05)
        else:
            pytest.fail("the round did not end; last screen:\n" + tmux.screen())
        final = tmux.screen()
        assert "Lorum · table offline" in final
        assert "Moll" in final and "Ned" in final and "Bess" in final
        assert deal_ends >= 1 and "Leave" not in final
        assert "Your lead" in seen_quartet or "goes on the run" in seen_quartet
        assert "▶ You" in seen_lorum and "lay" in seen_lorum.lower()
        tmux.keys("q")
        _until(tmux, "Leave")
        tmux.keys("y")
        after = _until(tmux, "EXIT=")
        assert "EXIT=0" in after and "1 match finished" in after
        assert "Traceback" not in after and "Traceback" not in log.read_text()
    finally:
        tmux.close()
