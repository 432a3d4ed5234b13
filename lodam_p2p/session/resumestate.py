"""The match state a RESUME or ATTEST carries, and the result a finished table tells.

A returning seat (:mod:`.rejoin`) reads these from other peers: every reader here
checks what it is given and says what is wrong, never trusting the sender.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from lodam_p2p.session.journal import check_snapshot
from lodam_p2p.tableplan import MatchOutcome

log = logging.getLogger("lodam_p2p.session")

#: Returns (REJOIN answered by RESUME) that void a hand, per seat and match: the table
#: takes a seat back this many times; its next return counts as leaving the match
#: (protocol/SPEC.md, "Returning"). Two covers a crash and a flaky Wi-Fi in one evening;
#: a return is a void without blame, so an unlimited number of them is a free redeal.
MAX_RETURNS = 2
#: Keys a RESUME's and ATTEST's state carries beside the match snapshot: the returns
#: counted per seat, and the failed hands in a row, both as of after the return.
RETURNS, VOIDS = "returns", "voids_in_row"
#: The most failed hands in a row a state may tell.
_MOST_VOIDS = 2**16


class TableGone(Exception):
    """The table cannot be played any more (its host left before the start, or it went
    on without this returning seat)."""


def pack_state(state: dict[str, Any]) -> bytes:
    """``state`` as the compact, key-sorted JSON every peer packs alike."""
    return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()


def read_state(table: str, blob: bytes) -> dict[str, Any] | None:
    """The JSON object a RESUME or ATTEST carries, or None (logged) if it is none."""
    try:
        state = json.loads(blob)
    except (ValueError, RecursionError) as err:  # UnicodeDecodeError is a ValueError
        log.warning("table %s: unreadable match state: %s", table, err)
        return None
    if not isinstance(state, dict):
        log.warning("table %s: a match state that is not an object", table)
        return None
    return state


def kept_snapshot(kept: object, players: int) -> dict[str, Any] | None:
    """The journal's match state, if it is a sound one."""
    try:
        return check_snapshot(kept, players)
    except ValueError:
        return None


def outcome_json(outcome: MatchOutcome) -> dict[str, Any]:
    """The result as a journal keeps it and a RESUME tells it."""
    return {**outcome.to_json(), "lives": list(outcome.lives), "payouts": list(outcome.payouts)}


def outcome_from(table: str, data: Any) -> MatchOutcome:
    """The result :func:`outcome_json` wrote (by another peer, perhaps); :class:`TableGone`
    if it is unusable."""
    if not isinstance(data, dict):
        raise TableGone(f"table {table} sent an unusable result")
    try:
        return MatchOutcome(table, tuple(int(w) for w in data["winners"]), int(data["deals"]),
                            int(data["audits_passed"]), tuple(str(b) for b in data["blames"]),
                            tuple(int(v) for v in data.get("lives", ())),
                            tuple(int(v) for v in data.get("payouts", ())))
    except (KeyError, TypeError, ValueError) as err:
        raise TableGone(f"table {table} sent an unusable result: {err}") from None


def return_counts(state: dict[str, Any], players: int) -> tuple[list[int], int]:
    """The returns per seat and the failed hands in a row ``state`` tells (checked:
    ``ValueError`` saying what is wrong)."""
    returns, voids = state.get(RETURNS), state.get(VOIDS)
    if not (isinstance(returns, list) and len(returns) == players and all(
            _count(r, MAX_RETURNS + 1) for r in returns)):
        raise ValueError("match state 'returns' is not one count per seat")
    if not isinstance(voids, int) or not _count(voids, _MOST_VOIDS):
        raise ValueError("match state 'voids_in_row' is not a count")
    return [int(r) for r in returns], int(voids)


def snapshot_of(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` without what the return adds to the match snapshot."""
    return {key: value for key, value in state.items() if key not in (RETURNS, VOIDS)}


def _count(value: object, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most
