"""Waiting on separate ``lodam`` processes: observable events, never a fixed sleep."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.brokers import Mosquitto

#: Safety net for every wait (seconds); the events come far sooner.
PATIENCE = 120.0


def wait_for(what: str, check: Callable[[], bool], patience: float = PATIENCE) -> None:
    """Poll ``check`` until it holds; fail the test after ``patience`` seconds."""
    deadline = time.monotonic() + patience
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.05)


def tables(broker: Mosquitto) -> str:
    """What ``lodam tables --json`` prints for the broker."""
    out = subprocess.run([sys.executable, "-m", "lodam_p2p", "tables", "--no-lan", "--timeout",
                          "1", "--broker", broker.url, "--json"],
                         capture_output=True, timeout=PATIENCE, check=False)
    return out.stdout.decode()


def announced(broker: Mosquitto, table: str) -> bool:
    """Whether the broker's lobby lists ``table``."""
    return f'"{table}"' in tables(broker)


def seated(broker: Mosquitto, table: str) -> int:
    """How many seats the lobby announcement of ``table`` shows taken."""
    try:
        rows = json.loads(tables(broker))["tables"]
    except (ValueError, KeyError):
        return 0
    return max((len(r.get("seated", [])) for r in rows if r.get("table") == table), default=0)


def logged(path: Path, text: str) -> bool:
    """Whether the log at ``path`` holds ``text`` yet."""
    try:
        return text in path.read_text()
    except OSError:
        return False
