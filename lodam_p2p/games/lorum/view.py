"""What one seat may know about a Lorum deal (its *view*).

A view holds the public record plus the seat's own current hand — none under
``red_king_blind``, where nobody sees their own cards — and, when it is this seat's step,
its legal actions. It never holds another seat's hidden card. ``to_act`` is the public
one, except that a seat sees its own turn when only its hand says so (it holds the next
card of a Quartet run, or ``KH`` at the announcement).
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lorum.actions import Action, Decision
from lodam_p2p.games.lorum.cards import Card, Suit, cards_of
from lodam_p2p.games.lorum.options import Contract, Options
from lodam_p2p.games.lorum.public import PublicDeal
from lodam_p2p.games.lorum.records import TrickRecord


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of the deal at one moment."""

    seat: int
    players: int
    dealer: int
    contract: Contract
    options: Options
    hand: tuple[Card, ...]  #: own current hand in index order (empty when blind)
    hand_sizes: tuple[int, ...]
    set_aside: tuple[Card, ...]  #: face up (7S 8S with three players)
    played: tuple[Card, ...]  #: every card out of play: played, laid (and set aside)
    leader: int
    current_trick: tuple[tuple[int, Card], ...]  #: the trick or Quartet run in progress
    tricks: tuple[TrickRecord, ...]
    lays: tuple[tuple[int | None, Card | None], ...]  #: Lorum: lays, passes, set-aside lays
    rows: dict[Suit, tuple[Card, ...]]  #: Lorum: each row's cards in laid order
    start_rank: int  #: Lorum: index of the starting rank (0 = 7 … 7 = A), -1 before
    fits: tuple[Card, ...]  #: Lorum: the cards that would fit the rows now
    points: tuple[int, ...]
    out: tuple[int, ...]
    announced: bool
    to_act: int | None
    awaiting: Decision | None
    awaiting_card: Card | None  #: the run card or KH whose holder is awaited
    legal: tuple[Action, ...]  #: non-empty only when it is this seat's step


def build_view(
    public: PublicDeal, seat: int, hand: tuple[Card, ...], own: bool, legal: tuple[Action, ...]
) -> PlayerView:
    """The view of ``seat``: ``public`` plus its own ``hand``; ``own``: its step now."""
    lorum = public.contract is Contract.LORUM
    return PlayerView(
        seat=seat,
        players=public.players,
        dealer=public.dealer,
        contract=public.contract,
        options=public.options,
        hand=hand,
        hand_sizes=tuple(public.hand_sizes),
        set_aside=cards_of(public.set_aside),
        played=cards_of(public.gone_mask),
        leader=public.leader,
        current_trick=tuple(public.current_trick),
        tricks=tuple(public.tricks),
        lays=tuple(public.lays),
        rows=public.rows() if lorum else {},
        start_rank=public.start_rank if lorum else -1,
        fits=cards_of(public.fit_mask) if lorum else (),
        points=tuple(public.points),
        out=tuple(public.out),
        announced=public.announced,
        to_act=seat if own else public.to_act,
        awaiting=public.awaiting,
        awaiting_card=public.awaiting_card,
        legal=legal,
    )


def public_of(view: PlayerView) -> PublicDeal:
    """The :class:`PublicDeal` at the view's moment, rebuilt from its public record (for
    a search that samples the hidden hands and continues with ``Deal.from_public``)."""
    public = PublicDeal.start(view.options, view.contract, view.players, view.dealer,
                              view.hand_sizes[0] + _played_by(view, 0) if view.players else 0)
    if view.contract is Contract.LORUM:
        for seat, card in view.lays:
            if seat is None:
                continue  # a set-aside card: the machine lays it itself
            if card is None:
                public.pass_turn(seat)
            else:
                public.lay(seat, card)
        return public
    for trick in view.tricks:
        for seat, card in trick.cards:
            _play(public, seat, card, view.announced)
    for seat, card in view.current_trick:
        _play(public, seat, card, view.announced)
    if public.awaiting is Decision.ANNOUNCE and view.awaiting is not Decision.ANNOUNCE:
        public._do_announce(-1, view.announced)
    return public


def _play(public: PublicDeal, seat: int, card: Card, announced: bool) -> None:
    if public.awaiting is Decision.ANNOUNCE:
        public._do_announce(-1, announced)
    public.play(seat, card)


def _played_by(view: PlayerView, seat: int) -> int:
    """Cards ``seat`` has played or laid so far (its dealt hand size minus its hand)."""
    count = sum(1 for t in view.tricks for s, _ in t.cards if s == seat)
    count += sum(1 for s, _ in view.current_trick if s == seat)
    return count + sum(1 for s, c in view.lays if s == seat and c is not None)
