"""What the table machine (:mod:`.seat`) and its runner (:mod:`.runner`) say to each other.

The machine does no I/O and reads no clock. Besides the bodies it publishes
(``outgoing``) and the retained lobby writes (``retained``), it leaves in its ``events``
list what only the runner can do — ask the local player (:class:`AskPlayer`), let the
link take frames from the seated peers only (:class:`Admit`), keep a finished hand's
transcript (:class:`TranscriptReady`) — and the runner feeds back
what comes of them (:class:`Decided`) through ``receive``, like everything the link
delivers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from lodam_p2p.fairdeal import Transcript

__all__ = ["Admit", "AskPlayer", "Decided", "Event", "Place", "SessionError", "TranscriptReady"]


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


#: What the machine asks its runner to do.
Event = AskPlayer | Admit | TranscriptReady
