"""What a hand is played with, and what it tells its caller."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from lodam_p2p.fairdeal.errors import Blame

#: Deck sizes the protocol deals: any from 2 to 104 cards (the games use 52 and 32 for
#: Lodam, 32 and 30 for Lorum; a card's index enters its point's hash as one byte). A
#: shuffle's body must also fit the envelope with the argument's proof (``fits``).
MIN_DECK, MAX_DECK = 2, 104


@dataclass(frozen=True, slots=True)
class HandConfig:
    """The public inputs of one hand, identical at every seat.

    ``seats`` are the participating seat numbers (0–255) in shuffle order;
    ``identities[i]`` is the raw 32-byte Ed25519 public key of ``seats[i]``;
    ``schedule[j]`` is the seat that position ``j`` of the final deck is dealt to, or
    ``None`` for a position left in the talon; ``timeout`` is how many seconds a seat
    may stay silent when the protocol waits for it; ``argument`` names the shuffle
    argument every shuffle and re-mask is proven with (``arguments.py``: ``"tw"``, the
    default; ``"none"`` for no proofs, when only the audit checks them, kept for
    comparison in ``lodam bench``; or one a package installed).
    """

    table_id: bytes
    hand: int
    seats: tuple[int, ...]
    identities: tuple[bytes, ...]
    deck_size: int
    schedule: tuple[int | None, ...]
    timeout: float = 30.0
    argument: str = "tw"

    def __post_init__(self) -> None:
        if len(self.table_id) != 16:
            raise ValueError("table_id must be 16 bytes")
        if not 0 <= self.hand < 2**32:
            raise ValueError("hand number must fit in 32 bits")
        if len(self.seats) < 2 or len(set(self.seats)) != len(self.seats):
            raise ValueError("need at least two distinct seats")
        if not all(0 <= s < 256 for s in self.seats):
            raise ValueError("seat numbers must be 0–255")
        if len(self.identities) != len(self.seats) or any(len(k) != 32 for k in self.identities):
            raise ValueError("one 32-byte Ed25519 public key per seat")
        if not MIN_DECK <= self.deck_size <= MAX_DECK:
            raise ValueError(f"deck_size must be {MIN_DECK} to {MAX_DECK}")
        if len(self.schedule) != self.deck_size:
            raise ValueError("schedule needs one entry per position")
        if any(s is not None and s not in self.seats for s in self.schedule):
            raise ValueError("schedule names a seat that is not playing")
        if not self.timeout > 0:
            raise ValueError("timeout must be positive")
        if not (isinstance(self.argument, str) and 0 < len(self.argument) <= 16
                and self.argument.isascii() and self.argument.isprintable()
                and " " not in self.argument):
            raise ValueError("argument must be a shuffle argument's name (1-16 ASCII)")

    @property
    def proofs(self) -> bool:
        """Whether shuffles and re-masks carry a proof of shuffle (version 3's flag)."""
        return self.argument != "none"

    def index(self, seat: int) -> int:
        """The seat's place in shuffle order."""
        return self.seats.index(seat)

    def positions_of(self, seat: int) -> tuple[int, ...]:
        """Positions dealt to ``seat``."""
        return tuple(j for j, s in enumerate(self.schedule) if s == seat)

    def shared_by(self, seat: int) -> tuple[int, ...]:
        """Positions ``seat`` publishes a deal share for: those dealt to other seats."""
        return tuple(j for j, s in enumerate(self.schedule) if s is not None and s != seat)


def deal_schedule(seats: tuple[int, ...], hand_size: int, deck_size: int) -> tuple[int | None, ...]:
    """Round-robin from ``seats[0]``: seat k gets positions k, k+m, …; the rest is talon."""
    m = len(seats)
    if m * hand_size > deck_size:
        raise ValueError("not enough cards for that hand size")
    return tuple(seats[j % m] if j < m * hand_size else None for j in range(deck_size))


class Phase(enum.Enum):
    """Where the hand stands."""

    KEYS = "keys"  #: waiting for every seat's hand key
    SHUFFLE = "shuffle"  #: seats shuffle in turn
    DEAL = "deal"  #: waiting for every seat's deal shares
    PLAY = "play"  #: cards dealt; reveals, transfers and re-masks on demand
    AUDIT = "audit"  #: some seat opened its secrets; waiting for the others
    DONE = "done"  #: audit passed
    ABORTED = "aborted"  #: a seat was blamed


#: The audit hook: given the card index at every deck position (``deal``) and at every
#: position a re-mask or transfer made (``masked``: position → card), name a guilty seat
#: or None.
AuditChecker = Callable[[tuple[int, ...], Mapping[int, int]], Blame | None]


@dataclass(frozen=True, slots=True)
class Dealt:
    """This seat's cards are known: position → card index."""

    cards: dict[int, int]


@dataclass(frozen=True, slots=True)
class CardRevealed:
    """A position is public: its card, and the seat whose message completed it."""

    position: int
    card: int
    by: int


@dataclass(frozen=True, slots=True)
class CardLearned:
    """A private transfer to this seat: the new position the transfer made (held by this
    seat), its card, and who handed it over."""

    position: int
    card: int
    giver: int


@dataclass(frozen=True, slots=True)
class AuditOpened:
    """``seat`` opened its secrets: the hand is over; call ``finish()`` too."""

    seat: int


@dataclass(frozen=True, slots=True)
class Remasked:
    """``seat`` re-masked ``inputs`` (now retired) into ``outputs``, which it can reveal
    and hand over at once. Which output holds which card only the seat knows."""

    seat: int
    inputs: tuple[int, ...]
    outputs: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AuditPassed:
    """Every opening checked and the checker found nobody guilty: the full deal (card
    at every deck position) and the card at every re-masked position."""

    deal: tuple[int, ...]
    masked: Mapping[int, int]


@dataclass(frozen=True, slots=True)
class Anomaly:
    """A position decrypted to no card: a shuffle was false. Finish to find the culprit."""

    position: int


@dataclass(frozen=True, slots=True)
class ResendWanted:
    """Envelopes from ``seat`` are missing from ``seq`` on: ask it to send them again."""

    seat: int
    seq: int


Event = (Dealt | CardRevealed | CardLearned | Remasked | AuditOpened | AuditPassed | Anomaly
         | ResendWanted)
