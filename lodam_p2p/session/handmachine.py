"""What the table machine knows of a hand: the one face every game's hand shows it.

The table machine (seating, clocks and votes, returns, the course of a match) deals a
hand, feeds it the bodies routed to it, asks it whose step is awaited, and carries out
what it produced; it never looks inside. A Lodam hand
(:class:`~lodam_p2p.session.handplay.HandPlay`, cards passed face down between seats)
and a hand of a game without exchanges
(:class:`~lodam_p2p.session.gamehand.GameHand`, Lorum) both meet it through
:class:`HandMachine`, so the machine holds either under one type and never asks which
it has.

The members are exactly the ones the machine reads or calls:

- *where the hand stands*: :attr:`~HandMachine.step` (a decision's number in the deal),
  :meth:`~HandMachine.awaited`, :meth:`~HandMachine.my_turn`,
  :attr:`~HandMachine.dealt`, :attr:`~HandMachine.audited`, and for a game whose turn
  can name a card instead of a seat, :meth:`~HandMachine.holder_turn` with the steps the
  table found its holder silent at (:attr:`~HandMachine.silenced`,
  :meth:`~HandMachine.silence`);
- *messages in*: :meth:`~HandMachine.route`, :meth:`~HandMachine.screen`,
  :meth:`~HandMachine.take`, and for a claim against a seat,
  :meth:`~HandMachine.signed_by`, :meth:`~HandMachine.taken_from`,
  :meth:`~HandMachine.vigilant`, :meth:`~HandMachine.feed`,
  :meth:`~HandMachine.earlier_offence`;
- *what it produced*: :attr:`~HandMachine.outbox` (bodies to send, which the machine
  empties), :attr:`~HandMachine.applied` (decisions to tell the player),
  :meth:`~HandMachine.act` (the body for this seat's own decision),
  :meth:`~HandMachine.view`;
- *its end*: :attr:`~HandMachine.full` (the replayed deal once audited),
  :attr:`~HandMachine.verdict`, :attr:`~HandMachine.last_fed` (a VOID's evidence),
  and the fair-deal hand itself (:attr:`~HandMachine.fair`, :attr:`~HandMachine.config`),
  which the machine keeps as the transcript and, for a deck that carries over
  (:attr:`~HandMachine.short`), deals on from.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from lodam_p2p.fairdeal import Blame, Hand, HandConfig, RemoteProtocolError
from lodam_p2p.games import Holder
from lodam_p2p.session.handtypes import Applied, Route
from lodam_p2p.session.wire import Body

if TYPE_CHECKING:
    from lodam_p2p.session.gamehand import GameHand
    from lodam_p2p.session.handplay import HandPlay

__all__ = ["HandMachine"]


@runtime_checkable
class HandMachine(Protocol):
    """One hand at one peer, as the table machine drives it (see the module docstring).

    Raised from :meth:`take`, :meth:`screen`, :meth:`feed` or :meth:`act`:
    :class:`~lodam_p2p.session.handtypes.Refused` (the body is ignored, the hand is as
    it was), :class:`~lodam_p2p.session.handtypes.Blamed` (a seat is proven to have
    broken the hand) or :class:`~lodam_p2p.fairdeal.RemoteProtocolError` (the fair-deal
    protocol caught a seat)."""

    #: the bodies the hand made and that are not sent yet (the machine takes them)
    outbox: list[Body]

    @property
    def step(self) -> int:
        """The number of public decisions taken in the deal so far."""
        ...

    @property
    def me(self) -> int | None:
        """This peer's seat in the hand (None: it watches)."""
        ...

    @property
    def fair(self) -> Hand:
        """The fair-deal hand under the deal."""
        ...

    @property
    def config(self) -> HandConfig:
        """The fair-deal hand's configuration: its seats, their keys, its context."""
        ...

    @property
    def public(self) -> Any:
        """The game's public part of the deal, the same at every peer."""
        ...

    @property
    def applied(self) -> list[Applied]:
        """Public decisions taken since the machine last told the player (it clears them)."""
        ...

    @property
    def full(self) -> Any:
        """The full deal replayed by the audit (None before the audit)."""
        ...

    @property
    def verdict(self) -> Blame | None:
        """The audit's finding against a seat, if it found one."""
        ...

    @property
    def last_fed(self) -> Mapping[int, tuple[bytes, ...]]:
        """Each seat's envelopes last fed: the evidence a VOID carries against it."""
        ...

    @property
    def short(self) -> bool:
        """A deal whose deck carries over: no secret is opened, nothing kept for audit."""
        ...

    @property
    def silenced(self) -> AbstractSet[int]:
        """The steps at which the table agreed that an awaited card's holder was silent."""
        ...

    @property
    def dealt(self) -> bool:
        """Every seat's cards are dealt."""
        ...

    @property
    def audited(self) -> bool:
        """The deal's check passed: it counts."""
        ...

    def awaited(self) -> tuple[int, object] | None:
        """The seat whose message the hand waits for now, and what it waits for."""
        ...

    def my_turn(self) -> bool:
        """This seat must decide now."""
        ...

    def holder_turn(self) -> Holder | None:
        """The card whose holder is awaited, when the public part names no seat."""
        ...

    def silence(self, step: int, now: float) -> None:
        """The table agreed that the holder awaited at ``step`` is silent."""
        ...

    def view(self) -> Any:
        """What this seat may know now."""
        ...

    def act(self, action: Any, now: float) -> Body:
        """The body for this seat's decided ``action`` (checked legal by the caller)."""
        ...

    def route(self, seat: int, body: Body) -> Route:
        """Whether ``seat``'s next body can be taken now."""
        ...

    def screen(self, seat: int, body: Body) -> None:
        """Blame what ``seat`` signed out of place in ``body``, before it is taken."""
        ...

    def take(self, seat: int, body: Body, now: float) -> None:
        """Apply ``seat``'s body (routed TAKE)."""
        ...

    def signed_by(self, seat: int, data: bytes) -> bytes | None:
        """The body of ``data`` if it is an envelope ``seat`` signed for this hand."""
        ...

    def taken_from(self, seat: int, data: bytes) -> bool:
        """Whether the envelope ``data`` has a sequence number already taken from ``seat``."""
        ...

    def vigilant(self) -> None:
        """A seat claims a cheat: check every proof left unchecked, now and from now on."""
        ...

    def earlier_offence(self) -> RemoteProtocolError | None:
        """The first unchecked proof that fails, before a session check convicts."""
        ...

    def feed(self, seat: int, envelopes: tuple[bytes, ...], now: float, *,
             own: bool = True, poll: bool = True) -> None:
        """Fair-deal envelopes from ``seat``."""
        ...


if TYPE_CHECKING:
    # checked by mypy, never run: each game's hand is a HandMachine as it stands
    def _lodam(hand: HandPlay) -> HandMachine:
        return hand

    def _lorum(hand: GameHand) -> HandMachine:
        return hand
