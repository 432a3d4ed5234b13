"""A seat's crash-safe journal: what a restarted process needs to sit down again.

A state directory (``--state-dir DIR``; by default a slot under the user's state
directory, :func:`default_state_root`) holds ``journal.json`` and a ``lock`` file. The
lock is an advisory ``flock`` held for the life of the process, so two processes never
share a journal, and a crashed process's lock is free at once (the kernel drops it).

The journal keeps, per session of the process (its *role*: ``seat`` for ``lodam
join``/``bot``, ``host`` and ``seat-1`` … for ``lodam host``):

- the identity key (so the seat comes back as the same peer) and the table;
- the stream epoch, bumped and written *before* each start (see
  :mod:`lodam_p2p.transport.stream`: a restarted peer never reuses a frame number);
- the START of the match (table id, options, roster) and the table's host;
- the match state after each settled or voided deal (:func:`match_snapshot`; the game
  saves its own part, :meth:`Game.match_state <lodam_p2p.games.Game.match_state>`; how
  that state is made, rebuilt and checked is :mod:`.matchstate`);
- the final result once the match is over.

Every write goes to a temporary file (mode 0600) that is flushed, ``fsync``-ed and
renamed over the journal, then the directory is ``fsync``-ed: a crash leaves either the
old journal or the new one, never a torn one. The directory is created 0700.

What the journal does *not* keep is the current hand's secrets (hand key, shuffle
permutation and randomness, decryption shares): writing them at every message would
cost a disk flush per message, and a hand whose secrets are lost cannot be finished
honestly. A seat that comes back mid-hand therefore has the hand voided without blame
and dealt again (:mod:`.rejoin`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
from pathlib import Path
from typing import IO, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.session.keys import Entropy
from lodam_p2p.session.matchstate import (
    check_snapshot,
    contradiction,
    match_from,
    match_snapshot,
)

log = logging.getLogger(__name__)

__all__ = [
    "HOST", "JOURNAL", "LOCK", "SEAT", "SLOTS", "VERSION", "Journal", "JournalError",
    "SeatJournal", "check_snapshot", "contradiction", "default_state_root", "match_from",
    "match_snapshot",
]

JOURNAL = "journal.json"
LOCK = "lock"
#: The journal's format version; it follows the protocol's, since a journal holds the
#: hand's signed envelopes (3: held cards under their holder's key), which another
#: version refuses.
VERSION = 3
#: Default slots under the state root (one per concurrently running seat).
SLOTS = 64
#: The first session's role in a joining seat's journal (``lodam join``, ``lodam bot``)
#: and in a host's (``lodam host``, whose local seats follow as ``seat-1`` …).
SEAT, HOST = "seat", "host"


class JournalError(Exception):
    """The state directory cannot be used (locked by another process, unreadable …)."""


def default_state_root() -> Path:
    """``$XDG_STATE_HOME/lodam``, else ``~/.local/state/lodam``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "lodam"


class Journal:
    """One state directory, locked by this process; see the module docstring."""

    def __init__(self, directory: Path, lock: IO[bytes], data: dict[str, Any]) -> None:
        self.directory = directory
        self._lock = lock
        self.data = data

    # --- opening ----------------------------------------------------------------------

    @classmethod
    def open(cls, directory: Path) -> Journal:
        """Lock ``directory`` (created 0700) and read its journal; :class:`JournalError`
        if another process holds it or the journal is unreadable."""
        journal = cls._try_open(directory)
        if journal is None:
            raise JournalError(f"state directory {directory} is in use by another process")
        return journal

    @classmethod
    def _try_open(cls, directory: Path) -> Journal | None:
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.chmod(directory, 0o700)
            fd = os.open(directory / LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise JournalError(f"cannot use state directory {directory}: {err}") from None
        lock = os.fdopen(fd, "r+b")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            lock.close()
            return None
        try:
            data = _read(directory / JOURNAL)
        except JournalError:
            lock.close()
            raise
        return cls(directory, lock, data)

    @classmethod
    def pick(cls, root: Path, table: str | None, role: str = SEAT) -> Journal:
        """The default journal of a process whose first session is ``role`` (:data:`SEAT`
        for ``lodam join``/``bot``, :data:`HOST` for ``lodam host``): the first free slot
        under ``root`` holding that role's unfinished match (at ``table``, if named),
        else the first free slot holding no unfinished match at all (created if need be).

        A slot is another process's while that process lives (its lock), so two
        processes of one account never share a slot, nor the identities kept in it. A
        slot left by a killed match is resumable only by the same role at the same
        table: a joining seat never takes up a host's journal (nor a host a seat's),
        and a match at another table neither takes it over nor waits for it.

        A slot whose journal this version cannot read (an earlier protocol's, or a
        damaged one) is passed over and left as it is: nothing in it can be resumed
        here, and nothing of it is lost. Only a state directory named outright
        (:meth:`open`) stops with that error."""
        for slot in range(SLOTS):
            if not (root / f"seat-{slot}" / JOURNAL).exists():
                continue
            journal = cls._readable(root / f"seat-{slot}")
            if journal is not None and journal.resumable(table, role):
                return journal
            if journal is not None:
                journal.close()
        for slot in range(SLOTS):
            journal = cls._readable(root / f"seat-{slot}")
            if journal is not None and not journal.resumable(None):
                return journal
            if journal is not None:
                journal.close()
        raise JournalError(f"every state slot under {root} is in use")

    @classmethod
    def _readable(cls, directory: Path) -> Journal | None:
        """The slot locked, or None if another process holds it or its journal cannot
        be read (logged)."""
        try:
            return cls._try_open(directory)
        except JournalError as err:
            log.info("passing over state slot %s: %s", directory, err)
            return None

    def close(self) -> None:
        """Release the lock (the file stays)."""
        with contextlib.suppress(OSError):
            self._lock.close()

    # --- reading ----------------------------------------------------------------------

    def entry(self, role: str) -> dict[str, Any]:
        """The journal entry of one session of this process (created empty)."""
        sessions = self.data.setdefault("sessions", {})
        entry = sessions.get(role)
        if isinstance(entry, dict):
            return entry
        fresh: dict[str, Any] = {}
        sessions[role] = fresh
        return fresh

    def resumable(self, table: str | None, role: str | None = None) -> bool:
        """Whether the journal holds a started, unfinished match (at ``table``, if named;
        in the session ``role``, if named)."""
        sessions = self.data.get("sessions", {})
        entries = [e for r, e in sessions.items()
                   if isinstance(e, dict) and (role is None or r == role)]
        return any(e.get("start") and not e.get("outcome")
                   and (table is None or e.get("table") == table) for e in entries)

    def unfinished_table(self) -> str | None:
        """The table of an unfinished match in this journal, if any."""
        for entry in self.data.get("sessions", {}).values():
            if isinstance(entry, dict) and entry.get("start") and not entry.get("outcome"):
                table = entry.get("table")
                return table if isinstance(table, str) else None
        return None

    # --- writing ----------------------------------------------------------------------

    def save(self) -> None:
        """Write the journal atomically (see the module docstring)."""
        path = self.directory / JOURNAL
        tmp = self.directory / (JOURNAL + ".tmp")
        data = json.dumps({**self.data, "version": VERSION}, sort_keys=True).encode()
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        dir_fd = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _read(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {"sessions": {}}
    except OSError as err:
        raise JournalError(f"cannot read {path}: {err}") from None
    try:
        data = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise JournalError(f"{path} is not a journal: {err}") from None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        raise JournalError(f"{path} is not a journal of this version")
    if not isinstance(data.get("sessions"), dict):
        data["sessions"] = {}
    return data


class SeatJournal:
    """One session's entry in a :class:`Journal` (None journal: nothing kept)."""

    def __init__(self, journal: Journal | None, role: str, table: str | None) -> None:
        self.journal = journal
        self.entry: dict[str, Any] = journal.entry(role) if journal is not None else {}
        if table is not None and self.entry.get("table") not in (None, table):
            self.entry.clear()  # another table: start afresh
        if self.entry.get("outcome"):
            self.entry.clear()  # that match is over: a new one
        if table is not None:
            self.entry["table"] = table

    @property
    def rejoining(self) -> bool:
        """Whether this seat had a match under way when its process stopped."""
        return bool(self.entry.get("start")) and not self.entry.get("outcome")

    def identity(self, entropy: Entropy) -> Ed25519PrivateKey:
        """The kept identity key, or a fresh one (kept from now on)."""
        raw = self.entry.get("identity")
        if isinstance(raw, str):
            with contextlib.suppress(ValueError):
                return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(raw))
        key = Ed25519PrivateKey.from_private_bytes(entropy(32))
        self.entry["identity"] = key.private_bytes_raw().hex()
        return key

    def next_epoch(self) -> int:
        """Bump and write the stream epoch before connecting; return it."""
        epoch = int(self.entry.get("epoch", -1)) + 1
        self.entry["epoch"] = epoch
        self.save()
        return epoch

    def keep(self, **fields: Any) -> None:
        """Set ``fields`` and write."""
        self.entry.update(fields)
        self.save()

    def save(self) -> None:
        """Write the journal, if there is one."""
        if self.journal is not None:
            self.journal.save()
