"""The player's name, remembered between runs in the user's configuration folder.

``--name`` on ``lodam play``, ``host`` and ``join`` sets the name shown at the table and
keeps it in ``$XDG_CONFIG_HOME/lodam/name`` (``~/.config/lodam/name`` by default), so
the next run needs no ``--name``. Without either, the login name is used. A name is
1-24 printable characters; the host of a table makes names unique there ("Ann (2)").
"""

from __future__ import annotations

import getpass
import logging
import os
from pathlib import Path

from lodam_p2p.cli import CliError

log = logging.getLogger(__name__)

#: Longest name shown at a table.
MAX_NAME = 24


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/lodam``, or ``~/.config/lodam``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "lodam"


def name_file() -> Path:
    """Where the name is remembered."""
    return config_dir() / "name"


def check_name(text: str) -> str:
    """``text`` as a name for the table, or a one-line error."""
    name = " ".join(text.split())
    if not name:
        raise CliError("--name must not be empty")
    if len(name) > MAX_NAME or not name.isprintable():
        raise CliError(f"--name must be 1 to {MAX_NAME} printable characters, not {text!r}")
    return name


def remembered_name() -> str | None:
    """The name kept by an earlier ``--name``, if any (a damaged file is ignored)."""
    try:
        text = name_file().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeError):
        return None
    try:
        return check_name(text)
    except CliError:
        return None


def remember_name(name: str) -> None:
    """Keep ``name`` for the next run (best effort: a read-only home only loses it)."""
    path = name_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name + "\n", encoding="utf-8")
    except OSError as err:
        log.warning("could not remember the name in %s: %s", path, err)


def login_name() -> str:
    """The login name, cleaned for the table ("player" if there is none)."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = ""
    clean = "".join(ch for ch in name if ch.isalnum() or ch in "-_.")[:20]
    return clean or "player"


def player_name(given: str | None) -> str:
    """The name to sit down with: ``given`` (then remembered), else the remembered one,
    else the login name."""
    if given is not None:
        name = check_name(given)
        remember_name(name)
        return name
    return remembered_name() or login_name()
