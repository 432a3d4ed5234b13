"""One whole match played through a real terminal: tmux runs ``lodam play``, keys are
sent with ``send-keys`` and the screen is read back with ``capture-pane``.

tmux must be installed (``.ci/run`` installs it); without it the test fails, it does not
skip. The match is short: three seats, one counter each, four cards a hand.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

LODAM = Path(sys.executable).with_name("lodam")
#: Screens read before giving up (a hang fails the test; it never passes by waiting).
MAX_SCREENS = 3000
#: Upper bound, in seconds, on waiting for one screen (generous: CI shares two cores).
PATIENCE = 60.0


class Tmux:
    """A private tmux server (its own socket) running one command in a 100×30 pane."""

    def __init__(self, command: str) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            pytest.fail("tmux is not installed (.ci/run installs it)", pytrace=False)
        self.base = [tmux, "-L", f"lodam-test-{uuid.uuid4().hex[:8]}"]
        self.run("new-session", "-d", "-x", "100", "-y", "30", "-s", "t", command)

    def run(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, check=False)
        return done.stdout

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str) -> str:
        """The first screen showing ``text``; fail after :data:`PATIENCE` seconds."""
        deadline = time.monotonic() + PATIENCE  # a safety net: it takes a moment
        while text not in (screen := self.screen()):
            if time.monotonic() > deadline:
                pytest.fail(f"no {text!r} on the screen in {PATIENCE:g} s:\n{screen}")
            time.sleep(0.05)
        return screen

    def close(self) -> None:
        self.run("kill-server")


@pytest.mark.slow
def test_a_whole_match_through_a_real_terminal(tmp_path: Path) -> None:
    log = tmp_path / "lodam.log"
    command = (f"{LODAM} play --offline --seed 1 --bot-delay 0 --seats 3 --option lives=1 "
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
            elif "your turn" in screen:
                seen_table = seen_table or screen
                tmux.keys("h", "Enter") if "Play to" in screen or "lead" in screen \
                    else tmux.keys("Enter")
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
