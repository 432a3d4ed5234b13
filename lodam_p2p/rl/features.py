"""A seat's observation as a flat vector of 0/1 and small numbers, for learning agents.

Per seat, ``3 * cards + 2 * players`` numbers (``cards``: the game's card indices, 52 in
Lodam, 32 in Lorum), seats counted from the observer (0 is itself):

- its own hand (one per card index);
- the cards face up on the table now (the trick or Quartet run in progress; Lodam's
  turned trump card);
- the cards seen played in finished tricks, runs and rows;
- whose step it is (one-hot, relative);
- each seat's points in the deal so far, divided by 100.

Only what the seat knows goes in: its own hand and what every seat saw. The vector is
written from bit masks that the engines keep as they go (a hand, a trick), a few
integer operations and one unpacking per plane, never from a rebuilt view; the cards of
finished tricks are added as tricks finish.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from lodam_p2p.games import lodam, lorum


class Features(Protocol):
    """What the vector is written from, per game (see the module docstring)."""

    cards: int

    def hand(self, deal: object, seat: int) -> int: ...
    def table(self, deal: object) -> int: ...
    def gone(self, deal: object) -> int: ...
    def points(self, deal: object) -> Sequence[int]: ...


class LodamFeatures:
    """Losing Lodam's masks: hands, the trick, the trump card, finished tricks."""

    cards = 52

    def __init__(self) -> None:
        self._seen: tuple[object, int, int] = (None, 0, 0)  # deal, tricks read, mask

    def hand(self, deal: object, seat: int) -> int:
        """The seat's hand."""
        mask: int = _lodam(deal).hands[seat]
        return mask

    def table(self, deal: object) -> int:
        """The trick in progress and the turned trump card."""
        d = _lodam(deal)
        mask = 0
        for index in d.trick:
            mask |= 1 << index
        if d.trump_suit >= 0:
            mask |= 1 << d.talon_top
        return mask

    def gone(self, deal: object) -> int:
        """Cards of the finished tricks, read once per trick."""
        d = _lodam(deal)
        log = d._trick_log  # read only: the rows the deal keeps anyway
        owner, read, mask = self._seen
        if owner is not d:
            read, mask = 0, 0
        for row in log[read:]:
            for index in row[1]:
                mask |= 1 << index
        self._seen = (d, len(log), mask)
        return mask

    def points(self, deal: object) -> Sequence[int]:
        """Points taken so far."""
        return _lodam(deal).points


class LorumFeatures:
    """Lorum's masks: hands, the trick or run, the cards out of play."""

    cards = 32

    def hand(self, deal: object, seat: int) -> int:
        """The seat's hand (empty while it is dealt blind: it does not see it)."""
        d = _lorum(deal)
        if d.public.blind:
            return 0
        mask = 0
        for card in d.hand(seat):
            mask |= 1 << card.index
        return mask

    def table(self, deal: object) -> int:
        """The trick or run in progress."""
        mask = 0
        for _, card in _lorum(deal).public.current_trick:
            mask |= 1 << card.index
        return mask

    def gone(self, deal: object) -> int:
        """Cards out of play (played, laid, set aside), less those on the table now."""
        d = _lorum(deal)
        return d.public.gone_mask & ~self.table(d)

    def points(self, deal: object) -> Sequence[int]:
        """Penalty points so far."""
        return _lorum(deal).public.points


def features_of(game: str) -> Features:
    """The features of the game called ``game``."""
    if game == "lodam":
        return LodamFeatures()
    if game == "lorum":
        return LorumFeatures()
    raise ValueError(f"no observation vector for the game {game!r}")


def _lodam(deal: object) -> lodam.Deal:
    assert isinstance(deal, lodam.Deal)
    return deal


def _lorum(deal: object) -> lorum.Deal:
    assert isinstance(deal, lorum.Deal)
    return deal


class Writer:
    """Writes seats' vectors into arrays of its own (one per seat, reused)."""

    def __init__(self, features: Features, players: int) -> None:
        self.features, self.players = features, players
        self.cards = features.cards
        self.size = 3 * self.cards + 2 * players
        self.rows: list[npt.NDArray[np.float32]] = [
            np.zeros(self.size, np.float32) for _ in range(players)]

    def write(self, deal: object | None, seat: int, to_act: int) -> npt.NDArray[np.float32]:
        """``seat``'s vector now (``deal`` None: before the deal, all zero). The array
        is the writer's own and changes with the next write: copy it to keep it."""
        row = self.rows[seat]
        row.fill(0.0)
        if deal is None:
            return row
        f, c, n = self.features, self.cards, self.players
        row[0:3 * c] = _unpack((f.hand(deal, seat), f.table(deal), f.gone(deal)), c)
        if to_act >= 0:
            row[3 * c + (to_act - seat) % n] = 1.0
        points = f.points(deal)
        for other in range(n):
            row[3 * c + n + (other - seat) % n] = points[other] / 100.0
        return row


def _unpack(masks: tuple[int, int, int], cards: int) -> npt.NDArray[np.uint8]:
    """The bits of three card masks, ``cards`` each, one after the other."""
    raw = b"".join(m.to_bytes(8, "little") for m in masks)
    bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
    return bits.reshape(3, 64)[:, :cards].reshape(-1)
