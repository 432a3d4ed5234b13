"""Hand-built Lorum positions for the bot tests: a public record plus current hands."""

from __future__ import annotations

from lodam_p2p.games.lorum import (
    PACK,
    Card,
    Contract,
    Deal,
    Options,
    PlayerView,
    PublicDeal,
)
from lodam_p2p.games.lorum.cards import mask_of


def cards(text: str) -> list[Card]:
    """``"7E 8E …"`` as cards."""
    return [Card.parse(t) for t in text.split()]


def position(
    contract: Contract, events: str, hands: dict[int, str], *, dealer: int = 3,
    options: Options | None = None, lays: bool = False,
) -> tuple[Deal, PlayerView]:
    """The deal after the public ``events`` (``"0:7E 1:8E …"``, plays or, with ``lays``,
    lays; ``"2:-"`` a pass) with the given current ``hands``; seats not given get the
    remaining cards in index order. Returns the deal and the view of the seat to act."""
    options = options or Options()
    public = PublicDeal.start(options, contract, 4, dealer)
    for event in events.split():
        seat_text, _, card_text = event.partition(":")
        seat = int(seat_text)
        if card_text == "-":
            public.pass_turn(seat)
        elif lays:
            public.lay(seat, Card.parse(card_text))
        else:
            public.play(seat, Card.parse(card_text))
    given = {s: cards(h) for s, h in hands.items()}
    used = public.gone_mask | mask_of(c for h in given.values() for c in h)
    rest = [c for c in PACK if not used >> c.index & 1]
    full: list[list[Card]] = []
    for seat in range(4):
        if seat in given:
            full.append(given[seat])
        else:
            size = public.hand_sizes[seat]
            full.append(rest[:size])
            rest = rest[size:]
    deal = Deal.from_public(public, full)
    to_act = deal.to_act
    assert to_act is not None
    return deal, deal.view(to_act)
