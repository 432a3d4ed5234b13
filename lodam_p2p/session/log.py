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


class SpectatorLog:
    """Writes one line per public event to ``stream``."""

    def __init__(self, table: str, stream: TextIO | None = None) -> None:
        self.table = table
        self.stream = stream if stream is not None else sys.stdout

    def line(self, text: str) -> None:
        """Write one line."""
        print(f"[{self.table}] {text}", file=self.stream, flush=True)

    def seated(self, roster: Roster) -> None:
        """The match starts with this roster."""
        seats = ", ".join(f"{i} {s.name} ({s.kind})" for i, s in enumerate(roster.sitters))
        self.line(f"match starts: {seats}")

    def dealer_drawn(self, dealer: int) -> None:
        """The lot drew the first dealer."""
        self.line(f"first dealer by lot: seat {dealer}")

    def hand_started(self, hand: int, deal: int, public: DealStart) -> None:
        """A hand begins."""
        lives = " ".join(f"{s}:{n}" for s, n in enumerate(public.lives))
        self.line(f"deal {deal} (hand {hand}): dealer seat {public.dealer}, eldest seat "
                  f"{public.order[0]}, {public.hand_size} cards each; counters {lives}")

    def applied(self, text: str) -> None:
        """A public decision or a trick taken."""
        if not text.endswith(_QUIET):
            self.line(f"  {text}")

    def deal_ended(self, reason: str, audit: str, lives: tuple[int, ...], *,
                   word: str = "counters") -> None:
        """A deal is settled; ``word`` names what ``lives`` count in the game played
        (Lodam's counters, the points of a game scored by points)."""
        counts = " ".join(f"{s}:{n}" for s, n in enumerate(lives))
        self.line(f"deal over: {reason}; audit {audit}; {word} {counts}")

    def match_ended(self, outcome: MatchOutcome) -> None:
        """The result."""
        winners = ", ".join(f"seat {s}" for s in outcome.winners) or "nobody"
        self.line(f"match over after {outcome.deals} deals: won by {winners}; "
                  f"{outcome.audits_passed} audits passed")
        for blame in outcome.blames:
            self.line(f"  blame: {blame}")
