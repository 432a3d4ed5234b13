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
  saves its own part, :meth:`Game.match_state <lodam_p2p.games.Game.match_state>`);
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
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.games import DEFAULT_GAME, Game, GameError, get_game
from lodam_p2p.session.keys import Entropy

log = logging.getLogger(__name__)

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


#: What a snapshot keeps of the session itself, beside the game's match state.
_SESSION_KEYS = ("hand_no", "audits", "blames")


def match_snapshot(match: Any, hand_no: int, audits: int, blames: list[str],
                   game: Game | None = None) -> dict[str, Any]:
    """The match state every peer agrees on after a settled or voided deal: the hand
    number, audits and blames, and the match as its ``game`` (the default game when
    None) saves it (:meth:`Game.match_state <lodam_p2p.games.Game.match_state>`).

    The default game's state lies beside the session's fields, as it always did (journals
    and RESUME messages written before other games existed read alike); another game's
    lies under ``game``, with ``deals_played`` beside it."""
    game = _game(game)
    session = {"hand_no": hand_no, "audits": audits, "blames": list(blames)}
    if game.name == DEFAULT_GAME:
        return {**session, **game.match_state(match)}
    return {**session, "deals_played": match.deals_played, "game": game.match_state(match)}


def match_from(snapshot: dict[str, Any], options: Any, game: Game | None = None,
               players: int = 0) -> Any:
    """Rebuild the match from :func:`match_snapshot` of ``game`` (the default game when
    None) at a table of ``players``; ``ValueError`` if unsound."""
    game = _game(game)
    if game.name == DEFAULT_GAME:
        state = {k: v for k, v in snapshot.items() if k not in _SESSION_KEYS}
        try:
            return game.restore_match(options, players, state)
        except ValueError as err:
            raise ValueError(f"unsound match state: {err}") from None
    try:
        match = game.restore_match(options, players, snapshot["game"])
    except (KeyError, GameError) as err:
        raise ValueError(f"unsound match state: {err}") from None
    if match.deals_played != snapshot.get("deals_played"):
        raise ValueError("unsound match state: deals played differ")
    return match


def _game(game: Game | None) -> Game:
    return get_game(DEFAULT_GAME) if game is None else game


#: Most blames a match state may carry, and the longest one (as on the wire).
_MAX_BLAMES, _MAX_BLAME_CHARS = 64, 256
#: What a deal does not change: a state that played no deal since the journal's must
#: hold these exactly as the journal does.
_PER_DEAL = ("lives", "dealer", "active", "eliminated_in", "is_over", "winners")


def check_snapshot(state: object, players: int) -> dict[str, Any]:
    """``state`` if it is a sound :func:`match_snapshot` of a ``players``-seat match;
    ``ValueError`` saying what is wrong otherwise. Strict: no coercion, every field of
    its own type and range (it may come from another peer). The state of a game played
    through the game interface (under ``game``) is the game's to check
    (:func:`match_from`)."""
    if not isinstance(state, dict):
        raise ValueError("match state is not an object")
    _int(state, "hand_no", 2**32 - 1)
    _int(state, "audits", 2**32 - 1)
    _int(state, "deals_played", 2**32 - 1)
    blames = state.get("blames")
    if not (isinstance(blames, list) and len(blames) <= _MAX_BLAMES and all(
            isinstance(b, str) and len(b) <= _MAX_BLAME_CHARS for b in blames)):
        raise ValueError("match state 'blames' is not a short list of texts")
    if "game" in state:
        if not isinstance(state["game"], dict):
            raise ValueError("match state 'game' is not an object")
        return state
    _int(state, "dealer", players - 1)
    if not isinstance(state.get("is_over"), bool):
        raise ValueError("match state 'is_over' is not a boolean")
    _seats(state, "lives", players, lambda v: _is_int(v) and 0 <= v < 2**16)
    _seats(state, "active", players, lambda v: isinstance(v, bool))
    _seats(state, "eliminated_in", players, lambda v: v is None or (_is_int(v) and v >= 0))
    winners = state.get("winners")
    if not (isinstance(winners, list) and len(set(map(repr, winners))) == len(winners)
            and all(_is_int(w) and 0 <= w < players for w in winners)):
        raise ValueError("match state 'winners' are not distinct seats")
    return state


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(state: dict[str, Any], key: str, most: int) -> None:
    value = state.get(key)
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most):
        raise ValueError(f"match state {key!r} is not a number from 0 to {most}")


def _seats(state: dict[str, Any], key: str, players: int, item: Callable[[Any], bool]
           ) -> None:
    value = state.get(key)
    if not (isinstance(value, list) and len(value) == players and all(map(item, value))):
        raise ValueError(f"match state {key!r} is not one fit value per seat")


def contradiction(state: dict[str, Any], kept: dict[str, Any] | None) -> str | None:
    """Why ``state`` (sound, from another peer) cannot follow ``kept`` (this seat's own
    journal snapshot, sound), or None if it can.

    A match only moves forward: the hand number, deals played and audits never go back,
    blames are only added, an eliminated seat stays out, and each deal takes a hand of
    its own. Without a deal played since ``kept``, nothing a deal settles (counters,
    dealer, who is in, the winners) may differ from it.
    """
    if kept is None:
        return None
    hands = state["hand_no"] - kept["hand_no"]
    deals = state["deals_played"] - kept["deals_played"]
    if hands < 0:
        return f"hand {state['hand_no']} is before the journal's hand {kept['hand_no']}"
    if not 0 <= deals <= hands:
        return f"{deals} deals played in {hands} hands"
    if state["audits"] < kept["audits"]:
        return "fewer audits than the journal holds"
    if state["blames"][:len(kept["blames"])] != kept["blames"]:
        return "blames differ from the journal's"
    if ("game" in state) != ("game" in kept):
        return "a state of another game than the journal's"
    if "game" in kept:
        return "the match changed without a deal played" if deals == 0 and (
            state["game"] != kept["game"]) else None
    for seat, out in enumerate(kept["eliminated_in"]):
        if out is not None and state["eliminated_in"][seat] != out:
            return f"seat {seat}, eliminated, is back in"
    if deals == 0:
        changed = [key for key in _PER_DEAL if state.get(key) != kept.get(key)]
        if changed:
            return f"{', '.join(changed)} changed without a deal played"
    return None
