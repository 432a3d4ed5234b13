"""The way into a deal of a game without exchanges: where each message goes, and what it
may carry.

:class:`~lodam_p2p.session.gamehand.GameHand` (Lorum) hands every body a peer's queue
offers it to :func:`route_message` (take it now, hold it, or drop it) and every body it
takes to :func:`screen_message` first (an envelope out of place is an offence). Both only
read the hand, through :class:`RoutedHand`, and change nothing, so a message is placed
the same way at every honest peer that has taken the same ones before it:

- PROTO (the fair-deal protocol's own envelopes) is taken at once: the fair-deal hand
  orders it;
- a MOVE is taken in the public turn order, at its step, once the deal is dealt and no
  card is being revealed; where the public part names a card instead of a seat
  (:class:`~lodam_p2p.games.Holder`) any seat may send it; a MOVE that does not read is
  taken at once, to be refused with its reason;
- NOTES (a seat's audit openings) wait until this seat has taken the sender's moves
  (:func:`route_notes`);
- an audit opening travels only in NOTES, and a reveal only with the move of the card
  it reveals (or, in a blind deal, as a share in PROTO).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from typing import Any, Protocol

from lodam_p2p.fairdeal import Hand, Phase
from lodam_p2p.games import Holder
from lodam_p2p.session.gamedeal import GameDeal, PendingMove
from lodam_p2p.session.handtypes import Route
from lodam_p2p.session.movebody import BadMove, GameMove
from lodam_p2p.session.wire import Body, Msg

__all__ = ["RoutedHand", "reads", "route_message", "route_notes", "screen_message"]


class RoutedHand(Protocol):
    """What the routing of a deal reads of the hand that owns it."""

    @property
    def me(self) -> int | None:
        """This peer's seat in the hand (None: it watches)."""
        ...

    @property
    def fair(self) -> Hand:
        """The fair-deal hand under the deal."""
        ...

    @property
    def deal(self) -> GameDeal:
        """The deal by the game's rules."""
        ...

    @property
    def public(self) -> Any:
        """The game's public part of the deal."""
        ...

    @property
    def step(self) -> int:
        """The number of moves taken in the deal so far."""
        ...

    @property
    def silenced(self) -> AbstractSet[int]:
        """The steps at which the table found an awaited card's holder silent."""
        ...

    @property
    def dealt(self) -> bool:
        """Every seat's cards are dealt."""
        ...

    @property
    def stalled(self) -> bool:
        """This seat gave up waiting for a silent holder."""
        ...

    @property
    def pending(self) -> PendingMove | None:
        """The move whose card is being revealed."""
        ...

    def screen_envelopes(self, seat: int, body: Body, reveal_due: Callable[[int], bool],
                         outside: str) -> None:
        """Refuse an early opening or an undue reveal in ``body``
        (:meth:`~lodam_p2p.session.handbase.HandBase.screen_envelopes`)."""
        ...


def reads(body: Body) -> bool:
    """Whether a MOVE body reads as a game move."""
    try:
        GameMove.read(body)
    except BadMove:
        return False
    return True


def route_message(hand: RoutedHand, seat: int, body: Body) -> Route:
    """Whether ``seat``'s next message can be taken now (a MOVE that does not read is
    taken at once, to be refused with its reason)."""
    if body.kind is Msg.PROTO:
        return Route.TAKE
    if body.kind is Msg.NOTES:
        return route_notes(hand, seat, body)
    if body.kind is Msg.MOVE and not reads(body):
        return Route.TAKE
    if (body.kind is not Msg.MOVE or hand.public.is_over or body.step < hand.step
            or hand.stalled):  # a holder found silent plays no more: the audit is on
        return Route.DROP
    if body.step > hand.step or not hand.dealt or hand.pending is not None:
        return Route.WAIT
    if hand.fair.phase is not Phase.PLAY:
        return Route.DROP  # the secrets are open: nothing more is played
    turn = hand.deal.turn()
    return Route.TAKE if isinstance(turn, Holder) or turn == seat else Route.WAIT


def route_notes(hand: RoutedHand, seat: int, body: Body) -> Route:
    """A seat's openings (NOTES), sent after the moves it had taken (its ``step``).

    They wait while this seat still has moves of the sender's to take: on a lossy
    network the last MOVE may come late, and openings taken first would stop the
    deal short here only. Before the end they are taken only once the table has
    found the awaited holder silent, or from a sender that stopped
    at an earlier step than this seat (then the audit replays up to that step and
    names the sender, unless the table had found the holder silent there). One seat
    cannot open the audit at a holder's step on its own word: that would name the
    holder, who may be about to play."""
    if seat in hand.fair.opened() and seat != hand.me:
        return Route.DROP
    if hand.pending is not None:
        return Route.WAIT
    if hand.fair.phase is not Phase.PLAY or hand.stalled or hand.public.is_over:
        return Route.TAKE
    return Route.TAKE if body.step < hand.step or hand.step in hand.silenced \
        else Route.WAIT


def screen_message(hand: RoutedHand, seat: int, body: Body) -> None:
    """Refuse an audit opening outside NOTES, and a reveal outside the seat's move
    (:class:`~lodam_p2p.session.handtypes.Blamed`, with the envelope as evidence)."""
    move = GameMove.read(body) if body.kind is Msg.MOVE else None
    blind = hand.deal.blind and body.kind is Msg.PROTO

    def due(position: int) -> bool:
        return blind or (move is not None and move.position == position)

    hand.screen_envelopes(seat, body, due, "outside its move")
