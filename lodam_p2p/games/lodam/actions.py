"""Every decision a seat can take (RULES.md 5–7), and the engine's errors.

Actions are small frozen values. The engine hands out *interned* ones (each
``Play(seat, card)`` is built once, see :func:`play_action`), so comparing a chosen
action with the legal list is mostly an identity check; actions built by hand compare
equal by value and work just as well.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from lodam_p2p.games.kit import rules
from lodam_p2p.games.lodam.cards import CARDS, Card

#: Seats are 0 … MAX_SEATS - 1.
MAX_SEATS = 10


class Decision(enum.Enum):
    """The kind of decision the engine awaits."""

    OFFER = "offer"  #: exchange window: offer a coat or card, or make no offer (default)
    ANSWER = "answer"  #: answer an offer: accept with a card of its kind, or decline (default)
    PLAY = "play"  #: play a card to the trick (no default)
    SWALLOW = "swallow"  #: take a trick won by a trump (default: no)
    DECLARE = "declare"  #: declare_out: declare out, maybe challenging (default: not now)
    CHALLENGE = "challenge"  #: declare_out: an eliminated watcher may challenge (default: no)


@dataclass(frozen=True, slots=True)
class Play(rules.CardPlay[Card]):
    """Play ``card`` to the current trick."""

    decision: ClassVar[Decision] = Decision.PLAY


@dataclass(frozen=True, slots=True)
class Offer(rules.SeatCard[Card | None]):
    """Offer ``card`` face down in an exchange window; ``None`` makes no offer."""

    decision: ClassVar[Decision] = Decision.OFFER

    def __str__(self) -> str:
        return "make no offer" if self.card is None else f"offer {self.card}"


@dataclass(frozen=True, slots=True)
class Answer(rules.SeatCard[Card | None]):
    """Accept the offer on the table with ``card`` (same kind); ``None`` declines."""

    decision: ClassVar[Decision] = Decision.ANSWER

    def __str__(self) -> str:
        return "decline the offer" if self.card is None else f"accept with {self.card}"


@dataclass(frozen=True, slots=True)
class Swallow:
    """Take (``True``) or leave (``False``) a trick that a trump won."""

    seat: int
    take: bool
    decision: ClassVar[Decision] = Decision.SWALLOW

    def __str__(self) -> str:
        return "swallow the trick" if self.take else "leave the trick"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare out (``out=True``), optionally challenging one other seat; ``False``: not now."""

    seat: int
    out: bool
    challenge: int | None = None
    decision: ClassVar[Decision] = Decision.DECLARE

    def __str__(self) -> str:
        if not self.out:
            return "pass the declaration"
        if self.challenge is None:
            return "declare out"
        return f"declare out challenging seat {self.challenge}"


@dataclass(frozen=True, slots=True)
class Challenge:
    """An eliminated watcher challenges ``target``; ``None`` makes no challenge."""

    seat: int
    target: int | None
    decision: ClassVar[Decision] = Decision.CHALLENGE

    def __str__(self) -> str:
        return "make no challenge" if self.target is None else f"challenge seat {self.target}"


Action = Play | Offer | Answer | Swallow | Declare | Challenge


# The engine's errors are every game's (lodam_p2p.games.kit.rules), named here too.
RulesError = rules.RulesError
MalformedInput = rules.MalformedInput
OptionError = rules.OptionError
IllegalAction = rules.IllegalAction


class Revoke(IllegalAction):
    """A renounce while holding a card of the led suit (RULES.md 8). At a table it is
    simply refused; at the end-of-deal audit it proves the revoke that eliminates."""


# --- interned actions --------------------------------------------------------------
# Index 52 stands for "no card" in the offer and answer tables.

NO_CARD = 52

PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, card) for card in CARDS) for seat in range(MAX_SEATS)
)
OFFERS: tuple[tuple[Offer, ...], ...] = tuple(
    (*(Offer(seat, card) for card in CARDS), Offer(seat, None)) for seat in range(MAX_SEATS)
)
ANSWERS: tuple[tuple[Answer, ...], ...] = tuple(
    (*(Answer(seat, card) for card in CARDS), Answer(seat, None)) for seat in range(MAX_SEATS)
)
SWALLOWS: tuple[tuple[Swallow, Swallow], ...] = tuple(
    (Swallow(seat, False), Swallow(seat, True)) for seat in range(MAX_SEATS)
)
#: ``DECLARE_PASS[s]`` is "not now" for seat s.
DECLARE_PASS: tuple[Declare, ...] = tuple(Declare(seat, False) for seat in range(MAX_SEATS))
#: ``DECLARE_OUT[s][t]`` declares out challenging t; index MAX_SEATS: no challenge.
DECLARE_OUT: tuple[tuple[Declare, ...], ...] = tuple(
    (*(Declare(seat, True, t) for t in range(MAX_SEATS)), Declare(seat, True, None))
    for seat in range(MAX_SEATS)
)
#: ``CHALLENGES[s][t]`` challenges t; index MAX_SEATS: no challenge.
CHALLENGES: tuple[tuple[Challenge, ...], ...] = tuple(
    (*(Challenge(seat, t) for t in range(MAX_SEATS)), Challenge(seat, None))
    for seat in range(MAX_SEATS)
)


def play_action(seat: int, card: Card) -> Play:
    """The interned ``Play(seat, card)``."""
    return PLAYS[seat][card.index]


def default_for(decision: Decision, seat: int) -> Action | None:
    """The default of a decision (``None`` for PLAY, which has none)."""
    if decision is Decision.OFFER:
        return OFFERS[seat][NO_CARD]
    if decision is Decision.ANSWER:
        return ANSWERS[seat][NO_CARD]
    if decision is Decision.SWALLOW:
        return SWALLOWS[seat][0]
    if decision is Decision.DECLARE:
        return DECLARE_PASS[seat]
    if decision is Decision.CHALLENGE:
        return CHALLENGES[seat][MAX_SEATS]
    return None
