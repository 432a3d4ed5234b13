"""The headless spectator log: a match as anyone at the table may follow it.

Only public facts are written: who sits where, the lot, the cards played, the kind and
outcome of exchanges (never their cards), swallows and declarations, every deal's end
and audit verdict, blames, and the result. ``lodam host``/``join`` print it on stdout
(on stderr with ``--json``). Offers not made and declined offers are left out: at a
table of five they are most of the lines and say nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Protocol, TextIO

from lodam_p2p.session.lobby import Roster
from lodam_p2p.tableplan import MatchOutcome

_QUIET = ("makes no offer", "declines")


class DealStart(Protocol):
    """What the first line of a deal of a game with counters tells (the public part of a
    Lodam deal, say): the dealer, the order of play, the hand size and the counters."""

    @property
    def dealer(self) -> int: ...
    @property
    def order(self) -> Sequence[int]: ...
    @property
    def hand_size(self) -> int: ...
    @property
    def lives(self) -> Sequence[int]: ...


def seated_line(roster: Roster) -> str:
    """The match starts with this roster."""
    seats = ", ".join(f"{i} {s.name} ({s.kind})" for i, s in enumerate(roster.sitters))
    return f"match starts: {seats}"


def dealer_line(dealer: int) -> str:
    """The lot drew the first dealer."""
    return f"first dealer by lot: seat {dealer}"


def hand_line(hand: int, deal: int, public: DealStart) -> str:
    """A hand begins."""
    lives = " ".join(f"{s}:{n}" for s, n in enumerate(public.lives))
    return (f"deal {deal} (hand {hand}): dealer seat {public.dealer}, eldest seat "
            f"{public.order[0]}, {public.hand_size} cards each; counters {lives}")


def applied_line(text: str) -> str | None:
    """A public decision or a trick taken (None: one the log leaves out)."""
    return None if text.endswith(_QUIET) else f"  {text}"


def deal_ended_line(reason: str, audit: str, lives: tuple[int, ...], *,
                    word: str = "counters") -> str:
    """A deal is settled; ``word`` names what ``lives`` count in the game played
    (Lodam's counters, the points of a game scored by points)."""
    counts = " ".join(f"{s}:{n}" for s, n in enumerate(lives))
    return f"deal over: {reason}; audit {audit}; {word} {counts}"


def match_ended_lines(outcome: MatchOutcome) -> list[str]:
    """The result, and a line per blame."""
    winners = ", ".join(f"seat {s}" for s in outcome.winners) or "nobody"
    return [f"match over after {outcome.deals} deals: won by {winners}; "
            f"{outcome.audits_passed} audits passed",
            *(f"  blame: {blame}" for blame in outcome.blames)]


class SpectatorLog:
    """Writes one line per public event to ``stream``; the table machine says what
    through the lines above (:class:`~lodam_p2p.session.effects.Spectate`)."""

    def __init__(self, table: str, stream: TextIO | None = None) -> None:
        self.table = table
        self.stream = stream if stream is not None else sys.stdout

    def line(self, text: str) -> None:
        """Write one line."""
        print(f"[{self.table}] {text}", file=self.stream, flush=True)

    def seated(self, roster: Roster) -> None:
        """The match starts with this roster."""
        self.line(seated_line(roster))

    def match_ended(self, outcome: MatchOutcome) -> None:
        """The result."""
        for text in match_ended_lines(outcome):
            self.line(text)
