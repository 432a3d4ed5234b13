"""Small values shared by the parts of a hand at one peer (:mod:`.handplay`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from lodam_p2p.fairdeal import Blame


class Route(enum.Enum):
    """What to do with the message at the head of a peer's queue."""

    TAKE = "take"  #: its turn has come
    WAIT = "wait"  #: it belongs later
    DROP = "drop"  #: stale or out of place


class Refused(ValueError):
    """A message that does not fit the hand: ignored, with this reason logged."""


class Blamed(Exception):
    """A seat broke the hand, proven by a message it signed: it is out, the hand is void.

    ``evidence`` holds the seat's signed fair-deal envelopes that prove it, when the
    proof is one (an audit opening sent early); others re-check them (VOID)."""

    def __init__(self, blame: Blame, evidence: tuple[bytes, ...] = ()) -> None:
        super().__init__(str(blame))
        self.blame = blame
        self.evidence = evidence


@dataclass(frozen=True, slots=True)
class Applied:
    """A public decision taken: who, what others may see of it (the game's action, None
    when it hides a card), and a sentence."""

    seat: int
    shown: Any
    text: str


@dataclass(slots=True)
class Pending:
    """A play waiting for its reveal, or an accepted offer waiting for its outcome."""

    seat: int
    position: int
    trade_with: int | None = None  #: the offerer, for an accepted offer
    sent: bool = False
