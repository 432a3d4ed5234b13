"""The public record of a deal: tricks, exchanges, the offer on the table, the result."""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lodam.cards import Card, Kind


@dataclass(frozen=True, slots=True)
class TrickRecord:
    """A completed trick. Its cards were played face up, so the record is public."""

    leader: int
    cards: tuple[tuple[int, Card], ...]  #: (seat, card) in play order
    winner: int  #: the seat that took it (the swallower, if it was swallowed)
    points: int  #: loader points in it
    swallowed: bool  #: taken by the highest card of the led suit in place of a trump


@dataclass(frozen=True, slots=True)
class ExchangeRecord:
    """One offer and its outcome, with the true cards (known only to the full deal)."""

    offerer: int
    offer: Card
    acceptor: int | None  #: None: nobody accepted and the offer lapsed
    accept: Card | None
    void: bool  #: both cards were of one suit, so each took back their own


@dataclass(frozen=True, slots=True)
class PublicExchange:
    """One offer as everyone saw it: its kind and outcome, never the cards.

    ``given`` and ``received`` are filled in only in the view of a seat that took part
    (the offerer or the acceptor): the card it put down and the card it saw come back.
    """

    offerer: int
    kind: Kind
    acceptor: int | None
    void: bool
    given: Card | None = None
    received: Card | None = None
    #: the index of the trick whose lead this exchange window preceded (the number of
    #: tricks completed when it was settled): a seat that renounced a suit before it may
    #: hold that suit again after it
    before_trick: int = 0


@dataclass(frozen=True, slots=True)
class PublicOffer:
    """An offer on the table, awaiting answers: who made it and of which kind."""

    offerer: int
    kind: Kind


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended."""

    points: tuple[int, ...]  #: per seat, in this deal
    #: the seat that went out (reached out_at, declared, or lost by a challenge);
    #: None when the deal was decided by most points
    out: int | None
    counter_change: tuple[int, ...]  #: per seat: -1, 0, or +1 (+1 only in Winning Lodam)
    reason: str  #: one sentence for people: "seat 3 reached 33 points"
