"""A private tmux server for terminal tests: panes run commands, keys go in with
``send-keys`` and screens come back with ``capture-pane``.

tmux must be installed (``.ci/run`` installs it); without it the test fails, it does not
skip. Every server has its own socket, so tests never touch a user's tmux.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Callable

import pytest

#: Upper bound, in seconds, on waiting for one screen (generous: CI shares two cores).
PATIENCE = 60.0


class Tmux:
    """A private tmux server; ``name`` is its first session, running ``command``."""

    def __init__(self, command: str, name: str = "t", width: int = 100,
                 height: int = 30) -> None:
        tmux = shutil.which("tmux")
        if tmux is None:
            pytest.fail("tmux is not installed (.ci/run installs it)", pytrace=False)
        self.base = [tmux, "-L", f"lodam-test-{uuid.uuid4().hex[:8]}"]
        self.size = (str(width), str(height))
        self.target = name
        self.open(name, command)

    def open(self, name: str, command: str) -> None:
        """Start another session ``name`` running ``command``, in a pane of the same size."""
        self.run("new-session", "-d", "-x", self.size[0], "-y", self.size[1], "-s", name,
                 command)

    def run(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, check=False)
        return done.stdout

    def keys(self, *keys: str, target: str | None = None) -> None:
        self.run("send-keys", "-t", target or self.target, *keys)

    def screen(self, target: str | None = None) -> str:
        return self.run("capture-pane", "-p", "-t", target or self.target)

    def joined(self, target: str | None = None) -> str:
        """The pane's whole history, wrapped lines joined."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", target or self.target)

    def wait_for(self, text: str, target: str | None = None) -> str:
        """The first screen showing ``text``; fail after :data:`PATIENCE` seconds."""
        deadline = time.monotonic() + PATIENCE  # a safety net: it takes a moment
        while text not in (screen := self.screen(target)):
            if time.monotonic() > deadline:
                pytest.fail(f"no {text!r} on the screen in {PATIENCE:g} s:\n{screen}")
            time.sleep(0.05)
        return screen

    def wait_until(self, check: Callable[[str], bool], what: str,
                   target: str | None = None) -> str:
        """The first screen that ``check`` accepts; fail, naming ``what``, after
        :data:`PATIENCE` seconds. Waiting for the answer to a key before reading the
        next question keeps a key from landing on a later one."""
        deadline = time.monotonic() + PATIENCE
        while not check(screen := self.screen(target)):
            if time.monotonic() > deadline:
                pytest.fail(f"never on the screen: {what}:\n{screen}")
            time.sleep(0.05)
        return screen

    def close(self) -> None:
        self.run("kill-server")
