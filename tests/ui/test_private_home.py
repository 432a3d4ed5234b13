"""The suite keeps out of the player's files; the remembered name works."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from lodam_p2p.cli import CliError
from lodam_p2p.cli.profile import check_name, name_file, player_name, remembered_name


def _real_home() -> Path:
    return Path(pwd.getpwuid(os.getuid()).pw_dir)


def _snapshot(root: Path) -> dict[str, tuple[int, int]]:
    found = {}
    for sub in (".local/state/lodam", ".config/lodam"):
        folder = root / sub
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.is_file():
                    stat = path.stat()
                    found[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return found


def test_a_run_writes_its_log_and_name_in_the_private_home_not_the_real_one(
        private_home: Path) -> None:
    real = _real_home()
    assert real != private_home and Path.home() == private_home
    before = _snapshot(real)
    done = subprocess.run(
        [sys.executable, "-m", "lodam_p2p", "play", "--name", "Ann", "--seats", "3"],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60, check=False)
    assert done.returncode != 0 and "needs a terminal" in done.stderr  # no tty here
    state = Path(os.environ["XDG_STATE_HOME"])  # a private folder (see tests/conftest.py)
    assert (state / "lodam" / "lodam.log").is_file()
    assert _snapshot(real) == before


def test_a_name_given_once_is_remembered(private_home: Path) -> None:
    assert remembered_name() is None
    assert player_name(None) not in ("", "Ann")  # the login name, cleaned
    assert player_name("  Ann   Lee ") == "Ann Lee"
    assert name_file() == private_home / ".config" / "lodam" / "name"
    assert player_name(None) == "Ann Lee"
    name_file().write_text("\x00bad\n")
    assert remembered_name() is None


@pytest.mark.parametrize("bad", ["", "   ", "x" * 25, "bell\x07"])
def test_a_bad_name_is_a_one_line_error(bad: str) -> None:
    with pytest.raises(CliError):
        check_name(bad)
