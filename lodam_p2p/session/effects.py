"""What the table machine (:mod:`.seat`) and its runner (:mod:`.runner`) say to each other.

The machine does no I/O and reads no clock. Besides the bodies it publishes
(``outgoing``) and the retained lobby writes (``retained``), it leaves in its ``events``
list, in order, what only the runner can do: tell the local player (:class:`Tell`),
write a line of the spectator log (:class:`Spectate`), keep fields in the seat's
journal (:class:`Keep`), ask the local player (:class:`AskPlayer`), let the link take
frames from the seated peers only (:class:`Admit`), keep a finished hand's transcript
(:class:`TranscriptReady`). The runner carries them out before it publishes what the
machine said (so a journal entry is written before any frame that follows it goes
out: :mod:`.signed`), and feeds back what comes of a question (:class:`Decided`)
through ``receive``, like everything the link delivers. :func:`carry_out` does the
plain ones (tell, spectate, keep) for every runner alike, the test routers included.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Transcript
from lodam_p2p.player import Player, TableEvent
from lodam_p2p.session.journal import SeatJournal
from lodam_p2p.session.log import SpectatorLog

__all__ = ["Admit", "AskPlayer", "Decided", "Event", "Keep", "Place", "SessionError",
           "Spectate", "Tell", "TranscriptReady", "carry_out"]


class SessionError(Exception):
    """The session could not play (the broker went away, the table never filled …)."""


class Place(Protocol):
    """Where a machine sits: its table, its identity key and the peer name of that key
    (a :class:`~lodam_p2p.session.link.Link` is one)."""

    table: str
    identity: Ed25519PrivateKey
    peer: str


@dataclass(frozen=True, slots=True)
class AskPlayer:
    """Ask the local player to decide ``step`` of ``hand`` on ``view`` (its view of the
    hand); the answer comes back as :class:`Decided`."""

    hand: int
    step: int
    view: Any


@dataclass(frozen=True, slots=True)
class Admit:
    """From now on, take frames only from ``peers`` (the seated table and its host)."""

    peers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Decided:
    """The local player's answer for ``step`` of ``hand`` (None: it failed)."""

    hand: int
    step: int
    action: Any  #: the game's action


@dataclass(frozen=True, slots=True)
class TranscriptReady:
    """A hand is over at this peer: ``transcript`` holds its public configuration and
    every envelope this peer took (its own too), as ``lodam verify`` reads it. ``hand``
    is the fair-deal hand number (the transcript's), ``seat`` this peer's seat (None for
    a watcher). A hand whose deck carries over between deals (Lorum's short
    First-and-last) hands over none: the transcript format names one deal's schedule."""

    table: str
    hand: int
    seat: int | None
    transcript: Transcript


@dataclass(frozen=True, slots=True)
class Tell:
    """Tell the local player ``event`` (a seat's player; a watcher has none)."""

    event: TableEvent


@dataclass(frozen=True, slots=True)
class Spectate:
    """Write ``line`` on the table's spectator log (only public facts)."""

    line: str


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep ``fields`` in this seat's journal and write it: before anything the machine
    says after it is published."""

    fields: dict[str, Any]


#: What the machine asks its runner to do.
Event = Tell | Spectate | Keep | AskPlayer | Admit | TranscriptReady


def carry_out(event: Event, *, player: Player | None, spectator: SpectatorLog | None,
              journal: SeatJournal) -> bool:
    """Carry out ``event`` if it is a plain one (:class:`Tell`, :class:`Spectate`,
    :class:`Keep`); False for the others, which only the runner knows how to do."""
    if isinstance(event, Tell):
        if player is not None:
            player.notify(event.event)
    elif isinstance(event, Spectate):
        if spectator is not None:
            spectator.line(event.line)
    elif isinstance(event, Keep):
        journal.keep(**event.fields)
    else:
        return False
    return True
