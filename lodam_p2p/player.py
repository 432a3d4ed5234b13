"""What a table tells the one who sits at a seat, and how that seat answers.

A *table driver* — the network session (one seat over MQTT and the fair-deal
protocol) or the local table (every seat in one process, no crypto) — owns the loop.
The *player* at a seat — the terminal client, or a bot adapter — is passive: the
driver calls :meth:`Player.notify` with every :data:`TableEvent` and awaits
:meth:`Player.decide` when the seat must act. A player only ever receives a
view of its seat in the game played (the game's own view value), never another seat's
hidden cards, and answers with one of that game's actions, which the game's engine
validates before it counts.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Protocol


class Phase(enum.Enum):
    """Where the table is; drives the progress line of a client."""

    LOBBY = "lobby"  #: waiting for seats to fill and get ready
    DRAWING = "drawing"  #: drawing the first dealer by lot
    SHUFFLING = "shuffling"  #: keys and the joint shuffle
    DEALING = "dealing"  #: decryption shares for the hands
    PLAYING = "playing"  #: exchanges and tricks
    AUDIT = "audit"  #: end-of-hand audit
    DEAL_OVER = "deal_over"  #: a deal has ended, the next one is coming
    MATCH_OVER = "match_over"  #: the match has ended


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat."""

    seat: int
    name: str
    kind: str  #: "human", or "bot:<bot name>"
    connected: bool = True


@dataclass(frozen=True, slots=True)
class SeatsChanged:
    """The seat list changed (someone joined, left, connected or went silent)."""

    seats: tuple[SeatInfo, ...]
    me: int  #: the seat this player sits at
    wanted: int = 0  #: before the start: seats the table has (0: as many as listed)


@dataclass(frozen=True, slots=True)
class ViewChanged:
    """The deal moved on; ``view`` is everything this seat may now know."""

    view: Any  #: the game's view of this seat
    last_action: Any = None  #: the public action that caused it, if any
    #: The deal's number in the match, from 1, as every seat counts it (the deals the
    #: match has counted, and one; a hand dealt again keeps it): a seat that came back,
    #: or whose process was started again, shows the number the others show. 0: not
    #: told (the screen counts).
    deal: int = 0


@dataclass(frozen=True, slots=True)
class Progress:
    """Protocol progress: what the table is doing and whom it waits for."""

    phase: Phase
    waiting_for: tuple[int, ...] = ()
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DealEnded:
    """A deal is over: who lost (or gained) a counter and why, and the audit verdict."""

    points: tuple[int, ...]
    counter_change: tuple[int, ...]
    lives: tuple[int, ...]  #: counters held after the deal
    reason: str  #: a sentence for people: "seat 3 went out with 33 points"
    audit: str  #: "passed", or what failed and whom it blames
    void: bool = False  #: the deal did not count (a blame or a proven revoke)
    #: The game's own record of the deal, for a client that draws more than the
    #: counters (Lorum: its ``DealResult`` with the contract, penalties and beans).
    detail: Any = None


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over."""

    winners: tuple[int, ...]
    standings: tuple[int, ...]  #: seats, best first
    deals: int
    payouts: tuple[int, ...] = ()  #: chips won (+) or lost (-) per seat, with stakes
    reason: str = ""  #: why it ended before its last deal ("seat 2 did not answer …")
    #: The game's own standings (:class:`~lodam_p2p.games.kit.values.Standings`), if any.
    detail: Any = None


class NoticeLevel(enum.Enum):
    """How loud a notice is."""

    INFO = "info"
    WARNING = "warning"  #: a silent peer, a reconnect
    ERROR = "error"  #: a blame, a failed audit, the table ending early


@dataclass(frozen=True, slots=True)
class Notice:
    """A message for the person at the seat (never a traceback)."""

    level: NoticeLevel
    text: str
    blamed: int | None = None  #: the seat a blame names


#: Everything a driver may tell a player.
TableEvent = SeatsChanged | ViewChanged | Progress | DealEnded | MatchEnded | Notice


class Player(Protocol):
    """Whoever sits at a seat: told everything public, asked when it must act.

    A player that decides from the view it is asked with alone may say so with a class
    attribute ``wants_views = False``: the network session then builds no view after
    every move for it and sends it no :class:`ViewChanged` (the other events still come).
    """

    def notify(self, event: TableEvent) -> None:
        """Take note of ``event``; must return quickly (render, log, remember)."""

    async def decide(self, view: Any) -> Any:
        """Return this seat's decision for ``view`` (``view.to_act == view.seat``): an
        action of the game played.

        The answer is checked by the rules engine; an illegal one is refused and
        ``decide`` is called again after a :class:`Notice`.
        """
        ...
