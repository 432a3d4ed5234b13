"""People at a networked table in real terminals, as the tmux tests of both games seat
them: client panes in tmux (``lodam host``, ``lodam join``), a ``lodam bot`` process,
and the loop that lets each person press what their screen asks for until the match is
over. Every wait polls with a generous safety limit; nothing is timed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.support.tmux import Tmux

LODAM = Path(sys.executable).with_name("lodam")
#: Small messages must not wait for delayed acknowledgements.
NODELAY = "set_tcp_nodelay true"
#: Safety limit on one step, in seconds (a hang fails the test; it never passes by waiting).
STEP_S = 90.0
LEAVE = "Leave the table?"


def until(check: Callable[[], bool], what: str, shown: Callable[[], str] = lambda: "",
          limit: float = STEP_S) -> None:
    """Poll ``check`` until it holds; fail, with the screen ``shown``, after ``limit``."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never saw {what}; the screen:\n{shown()}")


def client(verb: str, *args: str) -> str:
    """The shell command of a client pane: it prints its JSON line and stays a while."""
    return (f"{LODAM} {verb} {' '.join(args)} --json --bot-delay 0; echo EXIT=$?; "
            "sleep 120")


@dataclass
class Pane:
    """One client pane; :meth:`step` is how its person plays."""

    tmux: Tmux
    pane: str

    def screen(self) -> str:
        return self.tmux.screen(self.pane)

    def step(self) -> bool:
        """Press what the screen asks for, if anything; True once the match is over."""
        raise NotImplementedError

    def leave(self) -> dict[str, object]:
        """Leave the table; the JSON line the client prints."""
        self.tmux.keys("q", target=self.pane)
        until(lambda: LEAVE in self.screen(), "leave the table?", self.screen)
        self.tmux.keys("y", target=self.pane)
        until(lambda: "EXIT=" in self.tmux.joined(self.pane), "the client's exit", self.screen)
        text = self.tmux.joined(self.pane)
        assert "EXIT=0" in text and "Traceback" not in text, text
        lines = [line for line in text.splitlines() if line.startswith('{"table"')]
        assert len(lines) == 1, text
        return json.loads(lines[0])  # type: ignore[no-any-return]


def play_to_the_end(people: Sequence[Pane], bot: list[str], log: Path,
                    limit: float) -> list[dict[str, object]]:
    """Start the ``lodam bot`` process (``bot``: its arguments), let every person play
    until each screen shows the end of the match, then every person leaves: the JSON
    lines of the people, in order, and the bot's last."""
    process: subprocess.Popen[bytes] | None = None
    try:
        with log.open("wb") as err:
            process = subprocess.Popen([str(LODAM), "bot", *bot, "--json"],
                                       stdout=subprocess.PIPE, stderr=err)
        deadline = time.monotonic() + limit
        over = [False] * len(people)
        while not all(over):
            assert time.monotonic() < deadline, "".join(p.screen() for p in people)
            over = [done or person.step() for done, person in zip(over, people, strict=True)]
            time.sleep(0.05)
        out, _ = process.communicate(timeout=STEP_S)
        assert process.returncode == 0, log.read_text()
        return [*(person.leave() for person in people),
                json.loads(out.decode().splitlines()[-1])]
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()


def winner_first(screen: str, verdict: str) -> None:
    """The end panel's standings agree with its verdict (``verdict``: the words before
    the winner's name, e.g. "The match is over: ")."""
    title = re.search(re.escape(verdict) + r"(.+?) wins?!", screen)
    first = re.search(r" 1\. (\S+)", screen)
    assert title and first, screen
    if " and " not in title.group(1):
        assert first.group(1).lower() == title.group(1).lower(), screen
