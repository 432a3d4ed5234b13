"""Hand-built positions for the Lorum scenario tests."""

from __future__ import annotations

from typing import Any

from lodam_p2p.games.lorum import (
    Card,
    Contract,
    Deal,
    Lay,
    Options,
    Play,
)


def deal_of(contract: str, hands: list[str], dealer: int | None = None, *, auto: bool = True,
            **options: Any) -> Deal:
    """A deal with the given hands (seat order, cards in dealt order); the default dealer
    makes seat 0 the eldest."""
    players = len(hands)
    dealer = players - 1 if dealer is None else dealer
    return Deal.from_hands(
        Options.from_mapping(options), Contract(contract), dealer,
        [[Card.parse(c) for c in h.split()] for h in hands], auto=auto,
    )


def act(deal: Deal, moves: str) -> None:
    """Apply ``"0:7E 1:8E …"``: plays, or lays in the Lorum contract."""
    lorum = deal.contract is Contract.LORUM
    for move in moves.split():
        seat, card = move.split(":")
        parsed = Card.parse(card)
        deal.apply(Lay(int(seat), parsed) if lorum else Play(int(seat), parsed))


def play_lowest(deal: Deal) -> None:
    """Play the deal out, each decision the first legal action (lowest card, or no
    announcement)."""
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])


def words(text: str) -> list[str]:
    """The words of ``text`` (card lists written as one string)."""
    return text.split()


def legal_cards(deal: Deal) -> list[str]:
    """The legal actions now, as card strings."""
    return [str(getattr(a, "card", a)) for a in deal.legal_actions()]


#: Each seat one whole suit: seat 0 E, 1 G, 2 H, 3 S.
BY_SUIT = ["7E 8E 9E TE UE OE KE AE", "7G 8G 9G TG UG OG KG AG",
           "7H 8H 9H TH UH OH KH AH", "7S 8S 9S TS US OS KS AS"]
