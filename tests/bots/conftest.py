"""Shared helpers for the bot tests: deals built from a chosen deck."""

from __future__ import annotations

from collections.abc import Sequence

from lodam_p2p.games.lodam import FULL_PACK, Card, Deal, ExchangeRule, Options


def deck_with(top: Sequence[str]) -> list[Card]:
    """The full pack with the cards ``top`` first, in that order, the rest after."""
    first = [Card.parse(text) for text in top]
    return first + [card for card in FULL_PACK if card not in first]


def small_deal(hands: dict[int, Sequence[str]], talon_top: str, **options: object) -> Deal:
    """A 3-seat deal, dealer 0 (eldest 1), hand size from ``hands``, no exchanges."""
    size = len(hands[0])
    order = [1, 2, 0]
    top = [hands[seat][j] for j in range(size) for seat in order]
    settings: dict[str, object] = {"hand_size": size, "exchanges": ExchangeRule.OFF}
    settings.update(options)
    return Deal.start(Options(**settings), 0, [3, 3, 3], deck_with([*top, talon_top]))  # type: ignore[arg-type]
