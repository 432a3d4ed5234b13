"""One whole match played through a real terminal: tmux runs ``lodam play``, keys are
sent with ``send-keys`` and the screen is read back with ``capture-pane``.

tmux must be installed (``.ci/run`` installs it); without it the test fails, it does not
skip. The match is short: three seats, two counters each, four cards a hand (with one
counter the person may go out in the first deal; the bots then play the last deal at
once, without waiting for a watcher, and no end-of-deal panel would stay in view).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tests.support.tmux import Tmux

LODAM = Path(sys.executable).with_name("lodam")
#: Screens read before giving up (a hang fails the test; it never passes by waiting).
MAX_SCREENS = 3000


@pytest.mark.slow
def test_a_whole_match_through_a_real_terminal(tmp_path: Path) -> None:
    log = tmp_path / "lodam.log"
    command = (f"{LODAM} play --offline --seed 1 --bot-delay 0 --seats 3 --option lives=2 "
               f"--option hand_size=4 --option exchanges=first_trick --log-file {log}; "
               "echo EXIT=$?; sleep 60")
    tmux = Tmux(command)
    seen_table = seen_deal_end = ""
    try:
        for _ in range(MAX_SCREENS):
            screen = tmux.screen()
            if "The match is over" in screen:
                break
            if "Enter: continue" in screen:
                seen_deal_end = screen
                tmux.keys("Enter")
                tmux.wait_until(lambda s: "Enter: continue" not in s
                                or "The match is over" in s, "the end-of-deal panel closed")
            elif "your turn" in screen:
                seen_table = seen_table or screen
                _answer(tmux, screen)
            time.sleep(0.05)
        else:
            pytest.fail("the match did not end; last screen:\n" + tmux.screen())
        final = tmux.screen()
        assert "Enter: play again" in final and " 1. " in final and " 3. " in final
        assert "Losing Lodam · table offline" in seen_table
        assert "▶ You" in seen_table and "Moll" in seen_table and "Ned" in seen_table
        assert "Audit:" in seen_deal_end and "counter" in seen_deal_end
        tmux.keys("q")
        tmux.wait_for("Leave the table?")
        tmux.keys("y")
        after = tmux.wait_for("EXIT=")
        assert "EXIT=0" in after and "1 match finished" in after
        assert "Traceback" not in after and "Traceback" not in log.read_text()
    finally:
        tmux.close()


def _answer(tmux: Tmux, screen: str) -> None:
    """The hint and Enter for a card, Enter for any other question; each key waits for
    its answer on the screen, so that none is left over for the next question."""
    if "Play to" in screen or "lead" in screen:
        tmux.keys("h")
        hinted = tmux.wait_until(lambda s: "hint:" in s or "your turn" not in s, "the hint")
        if "hint:" in hinted:
            tmux.keys("Enter")
            tmux.wait_until(lambda s: "hint:" not in s, "the card played")
        return
    tmux.keys("Enter")
    tmux.wait_until(lambda s: s != screen, "the answer taken")
